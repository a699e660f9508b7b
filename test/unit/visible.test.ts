import { describe, expect, it } from 'vitest';
import { htmlText, jsonText, terminalText, visible } from '../../src/output/visible.js';

// The output chokepoint's escaping decides per text whether there is anything to escape with a
// table of code units (src/output/visible.ts); the Unicode expressions decide what. The table
// must cover every character the expressions escape, in this Node's Unicode version too.

/** Format characters (Cf) that are visible: the Arabic number signs and their kin, left as they are. */
const VISIBLE_CF = /[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}]/u;

describe('visible(): every hidden code point', () => {
  it('escapes every format character but the visible number signs, every control but tab and newline, U+2028/9', () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const s = String.fromCodePoint(cp);
      const hidden = (/\p{Cf}/u.test(s) && !VISIBLE_CF.test(s)) || (cp < 0x20 && cp !== 9 && cp !== 10) || (cp >= 0x7f && cp <= 0x9f) || cp === 0x2028 || cp === 0x2029;
      if (!hidden) continue;
      const shown = `a${s}b`;
      const outputs = [visible(shown), terminalText(shown, false), htmlText(shown), jsonText(JSON.stringify(shown))];
      if (outputs.some((o) => o.includes(s))) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
  });

  it('keeps emoji joiners, script joiners and flag tags, and escapes them elsewhere', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const persian = '\u0645\u06CC\u200C\u062E';
    const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    for (const legit of [family, persian, scotland, '\u2764\uFE0F']) expect(visible(legit)).toBe(legit);
    expect(visible('ad\u200Dmin')).toBe('ad\\u200dmin');
    expect(visible(`\u200D${family}`)).toBe(`\\u200d${family}`);
    expect(visible('\u{E0067}\u{E0062}')).toBe('\\U000e0067\\U000e0062');
    expect(visible('x\uFE0F\uFE0F')).toBe('x\\ufe0f\\ufe0f');
  });
});
