import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { fakeService } from '../helpers/fake-service.js';

// What a hostile service (CMS_API_URL) answers must not drive the user's terminal or the shell
// pipeline `cms ... -q | xargs cms ...`: terminal control sequences in names and labels are
// shown escaped, and -q never prints an id that a pipe would split or read as an option.
const ESC_TITLE = '\x1b]0;pwned\x07';
const CLEAR = '\x1b[2J\x1b[H';
const ALL_CONTROLS = Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).filter((c) => /[\x00-\x1f\x7f-\x9f]/.test(c)).join('');
const hubs = [
  { id: '6b0000000000000000000001', name: `evil${ESC_TITLE}`, label: `Label${CLEAR}\x9b31m`, status: 'ACTIVE', createdDate: '2026-01-01T00:00:00.000Z', [`field${ESC_TITLE}`]: { [`key${CLEAR}`]: 1 } },
  { id: 'x\n--profile\nother', name: 'newline-id', label: 'n', status: 'ACTIVE' },
  { id: '--dry-run', name: 'option-id', label: 'o', status: 'ACTIVE' },
  { id: 'a b', name: 'space-id', label: 's', status: 'ACTIVE' },
  // Every C0, DEL and C1 code point at once, in a name and a label.
  { id: '6b0000000000000000000002', name: ALL_CONTROLS, label: `all${ALL_CONTROLS}`, status: 'ACTIVE' },
  // xargs removes quotes and backslashes: each of these would reach the command as an option.
  { id: "'--profile=prod'", name: 'quoted-id', label: 'q', status: 'ACTIVE' },
  { id: '\\-\\-dry-run', name: 'escaped-id', label: 'e', status: 'ACTIVE' },
  { id: '"-o"', name: 'double-quoted-id', label: 'd', status: 'ACTIVE' },
  // Printed escaped (\u202e), a bidi control would reach xargs as a backslash and a word.
  { id: '6b000000000000000000\u202e0003', name: 'bidi-id', label: 'b', status: 'ACTIVE' },
];

describe('output from a hostile service', () => {
  const home = new CliHome();
  let service: Awaited<ReturnType<typeof fakeService>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    service = await fakeService((path) =>
      path === '/v2/content/hubs'
        ? { body: { _embedded: { hubs }, page: { number: 0, size: 100, totalPages: 1, totalElements: hubs.length } } }
        : path === '/v2/content/hubs/6b0000000000000000000001'
          ? { body: hubs[0] }
          : { status: path.startsWith('/v2/content/hubs') ? 200 : 404, body: { errors: [{ level: 'ERROR', code: 'NOT_FOUND', message: `no ${CLEAR}such thing${ESC_TITLE}` }] } },
    );
    env = service.env;
  });
  afterAll(() => {
    service.close();
    home.cleanup();
  });

  const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

  it('tables and records, on a terminal and piped, show control characters escaped', async () => {
    for (const extra of [{ CMS_FORCE_TTY: '200' }, {}]) {
      const list = await home.run(['hub', 'list'], { env: { ...env, ...extra } });
      expect(list.exitCode, list.stderr).toBe(0);
      expect(list.stdout).not.toMatch(controls);
      expect(list.stdout).toContain('evil\\x1b]0;pwned\\x07');
      const one = await home.run(['hub', 'get', '6b0000000000000000000001'], { env: { ...env, ...extra } });
      expect(one.stdout).not.toMatch(controls);
    }
  });

  it('-o json and ndjson stay valid JSON with no raw control character (C1 and DEL too, which JSON.stringify leaves raw)', async () => {
    for (const format of ['json', 'ndjson']) {
      const res = await home.run(['hub', 'list', '-o', format], { env });
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
      const parsed = format === 'json' ? JSON.parse(res.stdout) : res.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(parsed[0].label).toBe(hubs[0]!.label);
    }
  });

  it('-o yaml shows every control character escaped, and reads back to the same text', async () => {
    const res = await home.run(['hub', 'list', '-o', 'yaml'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    const { parse } = await import('yaml');
    expect(parse(res.stdout).find((h: { id: string }) => h.id === '6b0000000000000000000002').label).toBe(`all${ALL_CONTROLS}`);
  });

  it('error messages from the service show control characters escaped', async () => {
    const res = await home.run(['api', 'GET', '/nothing'], { env });
    expect(res.exitCode).toBe(1);
    expect(res.stderr).not.toMatch(controls);
  });

  it('an unknown --columns name lists the fields the service sent, control characters escaped (the refusal and the warning)', async () => {
    const refused = await home.run(['hub', 'list', '--columns', 'nope'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('field\\x1b]0;pwned\\x07');
    expect(refused.stderr).not.toMatch(controls);
    const warned = await home.run(['hub', 'get', '6b0000000000000000000001', '--columns', 'id,nope'], { env });
    expect(warned.exitCode, warned.stderr).toBe(0);
    expect(warned.stderr).toContain("warning: Unknown column 'nope'");
    expect(warned.stderr + warned.stdout).not.toMatch(controls);
  });

  it('-q prints only ids a pipe cannot split or take for an option, and says what it left out', async () => {
    const res = await home.run(['hub', 'list', '-q'], { env });
    expect(res.stdout).toBe('6b0000000000000000000001\n6b0000000000000000000002\n');
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('7 ids were not printed');
  });

  it('-q | xargs never hands the next command an option-looking word (quotes and backslashes are not pipe-safe)', async () => {
    const { execa } = await import('execa');
    const { BIN } = await import('../helpers/cli.js');
    const piped = await execa('sh', ['-c', `"${process.execPath}" "${BIN}" hub list -q | xargs printf '[%s]\\n'`], { env: { ...process.env, ...home.env, ...env }, reject: false });
    expect(piped.stdout).toBe('[6b0000000000000000000001]\n[6b0000000000000000000002]');
    expect(piped.stdout).not.toMatch(/\[-/);
  });
});
