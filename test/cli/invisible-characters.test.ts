import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { cellOf, stringWidth } from '../helpers/cells.js';

// Bidirectional controls and invisible format characters in text from the service (Trojan
// Source, CVE-2021-42574): a label "invoice<RLO>fdp.exe" shows as "invoiceexe.pdf", an isolate
// hides "; rm -rf ~" from a reader of the output, tag characters carry a hidden copy of ASCII
// text, zero-width spaces make two names look the same. The output chokepoint shows them
// escaped in text (tables, records, piped rows, YAML, messages) and as \uXXXX in JSON, and
// leaves what legitimate text needs: joiners inside emoji and in scripts that shape with them
// (Persian ZWNJ), the tag characters of a flag emoji.
const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
const SCOTLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
const PERSIAN = '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645';

/** Each hostile label, and how text output must show it. */
const HOSTILE: [label: string, shown: string][] = [
  ['invoice\u202Efdp.exe', 'invoice\\u202efdp.exe'],
  ['safe\u2066; rm -rf ~\u2069 name', 'safe\\u2066; rm -rf ~\\u2069 name'],
  ['marks \u200E\u200F\u061C\u202A\u202B\u202C\u202D\u2067\u2068', 'marks \\u200e\\u200f\\u061c\\u202a\\u202b\\u202c\\u202d\\u2067\\u2068'],
  ['zero\u200Bwidth\uFEFF bom', 'zero\\u200bwidth\\ufeff bom'],
  ['line\u2028sep\u2029para', 'line\\u2028sep\\u2029para'],
  ['hidden\u{E0069}\u{E0067}', 'hidden\\U000e0069\\U000e0067'],
  ['ad\u200Dmin', 'ad\\u200dmin'],
  ['pay\u00ADpal', 'pay\\xadpal'],
  // A colour code of the kind our own styling uses: escaped like any control sequence (no colour here).
  ['\x1b[31mred\x1b[39m', '\\x1b[31mred\\x1b[39m'],
  ['smuggled \u{1F600}\u{E0101}\u{E0102}', 'smuggled \u{1F600}\\U000e0101\\U000e0102'],
];
/** Legitimate text: shown as it is everywhere. */
const LEGIT = [`family ${FAMILY}`, `flag ${SCOTLAND}`, PERSIAN];
/** Long labels that a narrow table cuts: with 0, 1 and 2 letters before them, one of the three is cut right after a ZWNJ. */
const LONG = ['', 'x', 'xx'].map((pad) => pad + '\u0645\u06CC\u200C'.repeat(30));
const LABELS = [...HOSTILE.map(([l]) => l), ...LEGIT, ...LONG];

/** Raw characters no output may carry (the flag's tags are taken out first). */
const RAW = /[\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2028\u2029\ufeff]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const rawIn = (text: string) => RAW.test(text.split(SCOTLAND).join('')) || /\u200d/.test(text.split(FAMILY).join('')) || /(?<![\u0600-\u06ff])\u200c|\u200c(?![\u0600-\u06ff])/.test(text);

describe('bidi controls and invisible characters (built binary, embedded sandbox)', () => {
  const home = new CliHome();
  const ids: string[] = [];
  beforeAll(async () => {
    for (const [i, label] of LABELS.entries()) {
      const res = await home.run(['hub', 'create', '--name', `h${i}`, '--label', label, '-o', 'json']);
      expect(res.exitCode, res.stderr).toBe(0);
      ids.push(JSON.parse(res.stdout).id);
    }
    for (const [label] of HOSTILE.slice(0, 2)) expect((await home.run(['repo', 'create', '--hub', 'h0', '--name', label, '--label', 'r'])).exitCode).toBe(0);
  }, 120_000);
  afterAll(() => home.cleanup());

  it('tables on a terminal show them escaped, keep legitimate joiners and flags, and stay aligned', async () => {
    const res = await home.run(['hub', 'list'], { env: { CMS_FORCE_TTY: '200' } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(rawIn(res.stdout), JSON.stringify(res.stdout)).toBe(false);
    for (const [, shown] of HOSTILE) expect(res.stdout).toContain(shown);
    for (const legit of LEGIT) expect(res.stdout).toContain(legit);
    const lines = res.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(LABELS.length + 1);
    const status = cellOf(lines, 'ACTIVE');
    expect(status).toHaveLength(LABELS.length);
    expect(new Set(status).size, res.stdout).toBe(1);
  });

  it('on a narrow terminal escapes are measured and cut like any text: every line fits, columns line up', async () => {
    const res = await home.run(['hub', 'list'], { env: { CMS_FORCE_TTY: '60' } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(rawIn(res.stdout), JSON.stringify(res.stdout)).toBe(false);
    const lines = res.stdout.split('\n').filter(Boolean);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(60);
    expect(new Set(cellOf(lines, 'ACTIVE')).size, res.stdout).toBe(1);
    // A cut never leaves a joiner dangling before the ellipsis (it would be escaped after the layout).
    expect(res.stdout).not.toMatch(/[\u200c\u200d]…|\\u200c…/);
  });

  it('piped rows and records (terminal and piped) show them escaped', async () => {
    const piped = await home.run(['hub', 'list']);
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(rawIn(piped.stdout), JSON.stringify(piped.stdout)).toBe(false);
    for (const [, shown] of HOSTILE) expect(piped.stdout).toContain(`\t${shown}\t`);
    for (const extra of [{ CMS_FORCE_TTY: '200' }, {}]) {
      const one = await home.run(['hub', 'get', ids[0]!], { env: extra });
      expect(one.exitCode, one.stderr).toBe(0);
      expect(one.stdout).toContain(HOSTILE[0]![1]);
      expect(rawIn(one.stdout), JSON.stringify(one.stdout)).toBe(false);
    }
    const query = await home.run(['hub', 'list', '--query', '[].label']);
    expect(rawIn(query.stdout), JSON.stringify(query.stdout)).toBe(false);
  });

  it('-o json and ndjson write them as \\uXXXX: valid JSON, the same text once parsed, joiners of emoji and scripts left as they are', async () => {
    for (const format of ['json', 'ndjson']) {
      const res = await home.run(['hub', 'list', '-o', format]);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(rawIn(res.stdout), JSON.stringify(res.stdout)).toBe(false);
      expect(res.stdout).toContain('invoice\\u202efdp.exe');
      expect(res.stdout).toContain('hidden\\udb40\\udc69\\udb40\\udc67');
      for (const legit of LEGIT) expect(res.stdout).toContain(legit);
      const parsed = format === 'json' ? JSON.parse(res.stdout) : res.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(parsed.map((h: { label: string }) => h.label).sort()).toEqual([...LABELS].sort());
    }
  });

  it('-o yaml shows them escaped inside double quotes, and reads back to the same text', async () => {
    const res = await home.run(['hub', 'list', '-o', 'yaml']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(rawIn(res.stdout), JSON.stringify(res.stdout)).toBe(false);
    const { parse } = await import('yaml');
    expect(parse(res.stdout).map((h: { label: string }) => h.label).sort()).toEqual([...LABELS].sort());
  });

  it('cms item render > page.html: the page keeps its text, the hidden characters as HTML character references', async () => {
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await home.run(['api', method, path, '--input', '-'], { input: JSON.stringify(body) });
      expect(res.exitCode, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    const uri = 'https://schema.example.com/hebrew.json';
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', $id: uri, type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } };
    await api('POST', `/hubs/${ids[0]}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(schema), validationLevel: 'CONTENT_TYPE' });
    const type = await api('POST', `/hubs/${ids[0]}/content-types`, { contentTypeUri: uri, settings: { label: 'Hebrew' } });
    const repo = await api('POST', `/hubs/${ids[0]}/content-repositories`, { name: 'pages', label: 'Pages' });
    await api('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
    // A right-to-left mark and a soft hyphen: legitimate in a page, hidden on a terminal.
    const title = '\u05E9\u05DC\u05D5\u05DD 2026\u200F Wort\u00ADtrennung';
    const page = await api('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Page', body: { _meta: { schema: uri }, title } });
    for (const extra of [{}, { CMS_FORCE_TTY: '100' }]) {
      const res = await home.run(['item', 'render', page.id], { env: extra });
      expect(res.exitCode, res.stderr).toBe(0);
      expect(rawIn(res.stdout), JSON.stringify(res.stdout)).toBe(false);
      expect(res.stdout).not.toContain('\\u200f');
      expect(res.stdout).toContain('\u05E9\u05DC\u05D5\u05DD 2026&#x200f; Wort&#xad;trennung');
    }
  });

  it('error messages naming what the service holds show them escaped (text and JSON errors)', async () => {
    const res = await home.run(['item', 'list', '--hub', 'h0', '--repo', 'nope']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('invoice\\u202efdp.exe');
    expect(rawIn(res.stderr), JSON.stringify(res.stderr)).toBe(false);
    const typed = await home.run(['item', 'list', '--hub', 'h0', '--repo', `invoice\u202Efdx.exe`, '-o', 'json']);
    expect(typed.exitCode).toBe(1);
    expect(rawIn(typed.stderr), JSON.stringify(typed.stderr)).toBe(false);
    expect(JSON.parse(typed.stderr).error.message).toContain('invoice\u202Efdx.exe');
  });
});
