// The output chokepoint's escaping. Text from the service, from files and from the command line
// reaches the user's terminal and the scripts that read our output:
// - control characters (C0, DEL, C1) would let a hostile name retitle the window, clear the
//   screen, move the cursor or fake output;
// - bidirectional controls (U+061C, U+200E/F, U+202A-E, U+2066-9) reorder what follows on
//   screen: "invoice<RLO>fdp.exe" shows as "invoiceexe.pdf", an isolate hides "; rm -rf ~"
//   from a reader (Trojan Source, CVE-2021-42574);
// - invisible format characters (Unicode category Cf: zero-width space, word joiner, BOM, soft
//   hyphen, tag characters, ...) and line/paragraph separators (U+2028/9, which some tools take
//   for line ends) make two different names look the same or carry hidden text (tag characters
//   hold an invisible copy of ASCII; a run of variation selectors hides bytes behind an emoji).
// All of them are shown escaped: \xHH up to U+00FF, \uHHHH, \UHHHHHHHH beyond (YAML's own
// escapes, so a double-quoted YAML scalar reads back to the same text). Left as they are, because
// legitimate text needs them: a zero-width joiner inside an emoji sequence, a joiner or non-joiner
// between letters of a script that shapes with them (Persian, Arabic, the Indic scripts: not
// Latin, Greek or Cyrillic, whose look-alike names it would help to spoof), the tag characters of
// a flag emoji (black flag, tags, cancel tag), one variation selector, and the visible Arabic
// number signs that are Cf by category (U+0600-5, U+06DD, ...).
// src/cli/io.ts applies terminalText to everything written to stdout and stderr (jsonText to
// JSON); visible() is for text that is later joined with our own styling (table cells), and
// escapes exactly what terminalText would, so widths measured on it stay right.

// Each alternative below starts with the character it is about (the lookbehinds come after it):
// a position holding none of them fails at once.
const SHAPING = String.raw`[[\p{L}\p{M}]--[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}]]`;
/** Left as they are (group 1): legitimate sequences that hold characters escaped elsewhere. */
const KEEP = String.raw`(\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|\u200D(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]\u200D)(?=\p{Extended_Pictographic})|[\u200C\u200D](?<=${SHAPING}[\u200C\u200D])(?=${SHAPING}))`;
/** Shown escaped: controls, Cf but the visible number signs, U+2028/9, runs of variation selectors. */
const HIDDEN = String.raw`[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]|[\p{Cf}--[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}]]|[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{2,}`;
/**
 * Code units that may start something the expressions below act on: controls, U+2028/9, the
 * BMP's format characters and variation selectors, and the high surrogates of the astral ones
 * (tags and variation selectors, the few other format characters). Most text
 * holds none and is returned as it is after one pass over a table (the expressions cost ten
 * times that: Unicode classes at every position).
 */
const CANDIDATE = (() => {
  const table = new Uint8Array(0x10000);
  const mark = (from: number, to = from) => table.fill(1, from, to + 1);
  mark(0x00, 0x08), mark(0x0b, 0x1f), mark(0x7f, 0x9f), mark(0x2028, 0x2029), mark(0xfe00, 0xfe0f);
  // The BMP's \p{Cf} (Unicode 15.1), spelled out: a loop over \p{Cf} would cost every start of cms.
  for (const [from, to] of [[0xad], [0x600, 0x605], [0x61c], [0x6dd], [0x70f], [0x890, 0x891], [0x8e2], [0x180e], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x2064], [0x2066, 0x206f], [0xfeff], [0xfff9, 0xfffb]]) mark(from!, to);
  // High surrogates of U+110BD/U+110CD, U+13430.., U+1BCA0.., U+1D173.., U+E0000..U+E01EF (a flag's
  // tags among them: the black flag alone is nothing to act on).
  for (const cp of [0x110bd, 0x13430, 0x1bca0, 0x1d173, 0xe0000, 0xe0100]) table[0xd800 + ((cp - 0x10000) >> 10)] = 1;
  return table;
})();

/** Whether text holds a candidate code unit (tabs too when asked: JSON escapes them). */
function hasCandidate(text: string, tabs = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (CANDIDATE[c] || (tabs && c === 9)) return true;
  }
  return false;
}

const VISIBLE = new RegExp(`${KEEP}|${HIDDEN}`, 'gv');

const escapeOne = (c: string) => {
  const n = c.codePointAt(0)!;
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : n <= 0xffff ? `\\u${n.toString(16).padStart(4, '0')}` : `\\U${n.toString(16).padStart(8, '0')}`;
};
const escape = (m: string) => Array.from(m, escapeOne).join('');

/** Hidden characters escaped; newlines and tabs are the caller's to handle (tables flatten them, messages keep them). */
export function visible(text: string): string {
  if (!hasCandidate(text)) return text;
  return text.replace(VISIBLE, (m, keep?: string) => (keep ? m : escape(m)));
}

/** Whether visible() would change the text (YAML quotes such strings, so that its escapes read back). */
export function hasHidden(text: string): boolean {
  return visible(text) !== text;
}

/**
 * What may reach a terminal: newlines, tabs, CR LF line ends (rendered HTML, files written on
 * Windows) and, when colour is on, only the SGR sequences our own Paint emits (bold, dim, red,
 * green, yellow and their resets: a colour change at most, never a cursor move, a title, a
 * hidden text or a link). Every other hidden character is shown escaped, as visible() does.
 */
const TERMINAL = new RegExp(String.raw`(\x1b\[(?:1|2|22|31|32|33|39)m|\r\n)|${KEEP}|${HIDDEN}`, 'gv');

export function terminalText(text: string, colour: boolean): string {
  if (!hasCandidate(text)) return text;
  return text.replace(TERMINAL, (m, ours?: string, keep?: string) => (keep || m === '\r\n' || (ours && colour) ? m : ours ? visible(m) : escape(m)));
}

/**
 * An HTML document as safe as it is the same page: control characters shown as \xHH (as text is:
 * a page has no use for them), the other hidden characters as character references (&#x200f;),
 * which a browser reads as the character itself (a right-to-left mark in Hebrew text, a soft
 * hyphen: legitimate in a page, hidden on a terminal).
 */
const CONTROL = /^[\x00-\x1f\x7f-\x9f]/;

export function htmlText(text: string): string {
  if (!hasCandidate(text)) return text;
  return text.replace(TERMINAL, (m, ours?: string, keep?: string) =>
    keep || m === '\r\n' ? m : ours || CONTROL.test(m) ? visible(m) : Array.from(m, (c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
  );
}

/**
 * JSON text as safe as it is valid: JSON.stringify escapes C0 already but leaves DEL, C1 (CSI
 * is \x9b), bidi controls, U+2028/9 and invisible format characters raw. The same characters
 * text output escapes (and the same legitimate ones kept) become \uXXXX inside the JSON string
 * (a surrogate pair beyond U+FFFF), which parses back to the same value.
 */
const JSON_HIDDEN = new RegExp(String.raw`${KEEP}|${HIDDEN}|\x09`, 'gv');

export function jsonText(text: string): string {
  if (!hasCandidate(text, true)) return text;
  return text.replace(JSON_HIDDEN, (m, keep?: string) => (keep ? m : Array.from(m.split(''), (u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')));
}
