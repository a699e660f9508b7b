import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The shape of the sandbox service (docs/architecture.md), checked on its import graph:
// - no cycle between files. Type-only imports count too: a type cycle is still a circle a reader
//   has to walk, and it turns into a runtime one as soon as someone needs a value.
// - core/ imports no family (only core/ files).
// - a family uses another family only through its index.ts, body schemas included: field shapes
//   that several families' body schemas share live in core/validate.ts (zod loads only for
//   requests with a body, so they cannot come through an index.ts that every read loads).
// - the assembly (the files directly in src/server: service.ts, families.ts, migrations.ts,
//   app.ts, http.ts) may import anything: it is what knows every family.
// The whole of src/ (CLI, operations, output, service) is checked too: no cycle anywhere, and no
// write to stdout or stderr outside the output chokepoint, src/cli/io.ts.

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/server');
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"\n]+)\1/g;

function serverFiles(dir = SERVER, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) serverFiles(full, out);
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** file -> files it imports, paths relative to src/server with '/' separators. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of serverFiles()) {
    const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const targets = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), m[2]!).replace(/\.js$/, '.ts');
      if (target.startsWith(SERVER + sep)) targets.add(rel(target));
    }
    graph.set(rel(file), [...targets]);
  }
  return graph;
}

const rel = (p: string) => relative(SERVER, p).split(sep).join('/');

/** Strongly connected components with more than one file (or a file importing itself): Tarjan. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)!.includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The top folder of a file under src/server ('core', a family), or null for the assembly. */
const area = (file: string): string | null => (file.includes('/') ? file.split('/')[0]! : null);

function layerViolations(graph: Map<string, string[]>): string[] {
  const problems: string[] = [];
  for (const [from, targets] of graph) {
    const own = area(from);
    if (own === null) continue;
    for (const to of targets) {
      const other = area(to);
      if (other === own || other === 'core') continue;
      if (other === null) problems.push(`${from} imports the assembly file ${to}`);
      else if (own === 'core') problems.push(`core file ${from} imports the family file ${to}`);
      else if (to !== `${other}/index.ts`) problems.push(`${from} imports ${to}, an internal of family ${other} (use ${other}/index.ts)`);
    }
  }
  return problems;
}

describe('the sandbox service architecture', () => {
  const graph = importGraph();

  it('reads the whole service', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('service.ts')?.length).toBeGreaterThan(5);
  });

  it('has no import cycle between files', () => {
    const found = cycles(graph);
    const summary = found.map((c) => `${c.length} files: ${c.join(' ')}`);
    expect(summary, `${found.length} cycles; largest ${Math.max(0, ...found.map((c) => c.length))} files`).toEqual([]);
  });

  it('keeps core free of families, and families apart except through index.ts', () => {
    expect(existsDir('core')).toBe(true);
    expect(layerViolations(graph)).toEqual([]);
  });
});

/** Every .ts file of src/ (the browser console's .tsx are its own program, built apart). */
const SRC = resolve(SERVER, '..');

function srcGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of serverFiles(SRC)) {
    const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const targets = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), m[2]!).replace(/\.js$/, '.ts');
      if (target.startsWith(SRC + sep)) targets.add(relative(SRC, target).split(sep).join('/'));
    }
    graph.set(relative(SRC, file).split(sep).join('/'), [...targets]);
  }
  return graph;
}

describe('the whole of src/', () => {
  const graph = srcGraph();

  it('reads the CLI, the operations and the service', () => {
    expect(graph.size).toBeGreaterThan(300);
    for (const f of ['cli/main.ts', 'core/client.ts', 'output/render.ts', 'server/service.ts']) expect(graph.has(f), f).toBe(true);
  });

  it('has no import cycle between files (type-only imports included)', () => {
    const found = cycles(graph);
    const summary = found.map((c) => `${c.length} files: ${c.join(' ')}`);
    expect(summary, `${found.length} cycles`).toEqual([]);
  });

  // src/ops shows its architecture (docs/architecture.md): the machinery of runs (ops/runs) and of
  // files from outside (ops/files) serves the operations at the top of ops/, never the reverse.
  it('keeps the machinery of ops/runs and ops/files free of the operations', () => {
    const problems: string[] = [];
    for (const [from, targets] of graph) {
      if (!/^ops\/(runs|files)\//.test(from)) continue;
      for (const to of targets) if (to.startsWith('ops/') && !/^ops\/(runs|files)\//.test(to)) problems.push(`${from} imports the operation ${to}`);
    }
    expect(problems).toEqual([]);
  });

  // The output chokepoint (issue 24.5): every string for stdout or stderr goes through src/cli/io.ts,
  // which escapes control characters; a new call site cannot forget it if it cannot write at all.
  it('writes to stdout and stderr only through the output chokepoint (src/cli/io.ts)', () => {
    const WRITES = /\bprocess\.(stdout|stderr)\b|\bconsole\.(log|error|warn|info|debug|trace|dir|table)\s*\(|\bprocess\._rawDebug\b|\bwriteSync\(\s*[12]\s*,/;
    const offenders: string[] = [];
    for (const file of serverFiles(SRC)) {
      const name = relative(SRC, file).split(sep).join('/');
      if (name === 'cli/io.ts' || name.startsWith('console/')) continue;
      // Comments and quoted strings (help examples such as `node -e "console.log(...)"`) are not code.
      const text = readFileSync(file, 'utf8')
        .replace(/^\s*(\/\/|\*).*$/gm, '')
        .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, "''");
      const hit = text.match(WRITES);
      if (hit) offenders.push(`${name}: ${hit[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  // Node 24 aborts when the collector finds a better-sqlite3 object on its own (native-keep.ts):
  // every database is opened where it is kept, src/server/core/db.ts (test/helpers/sqlite.ts in tests).
  it('opens better-sqlite3 databases in one place, where they are kept', () => {
    const VALUE_IMPORT = /\bimport\s+(?!type\b)[^;]*?from\s*['"]better-sqlite3['"]|\brequire\(\s*['"]better-sqlite3['"]\s*\)|\(\s*['"]better-sqlite3['"]\s*\)/;
    const TEST = resolve(SRC, '../test');
    const allowed = new Set(['src/server/core/db.ts', 'test/helpers/sqlite.ts']);
    const offenders: string[] = [];
    for (const file of [...serverFiles(SRC), ...serverFiles(TEST)]) {
      const name = relative(resolve(SRC, '..'), file).split(sep).join('/');
      if (allowed.has(name)) continue;
      const text = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
      if (VALUE_IMPORT.test(text)) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });
});

function existsDir(name: string): boolean {
  try {
    return statSync(join(SERVER, name)).isDirectory();
  } catch {
    return false;
  }
}
