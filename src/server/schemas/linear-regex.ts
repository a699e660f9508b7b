import { createRequire } from 'node:module';

// Patterns from schemas (`pattern`, `patternProperties`, formats) run on RE2 (re2js): linear
// time in the input, whatever the pattern. The default engine backtracks: "^(a+)+$" against 30
// characters takes minutes (issue 24.3). Constructs RE2 cannot run in linear time
// (backreferences, lookaround) are refused when a schema is saved.
const require = createRequire(import.meta.url);

type Re2Module = typeof import('re2js');
type Re2 = InstanceType<Re2Module['RE2JS']>;

let re2: Re2Module['RE2JS'] | undefined;
const engine = () => (re2 ??= (require('re2js') as Re2Module).RE2JS);

/** Compiled patterns, shared by every validator (a pattern's program does not depend on the schema). */
const compiled = new Map<string, Re2>();
const COMPILED_LIMIT = 2_000;

/** The RE2 program of an ECMAScript pattern; throws Error naming why it cannot run in linear time. */
export function linearPattern(pattern: string, ignoreCase = false): Re2 {
  const key = `${ignoreCase ? 'i' : '-'}${pattern}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const RE2JS = engine();
  const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  let re: Re2;
  try {
    re = RE2JS.compile(pattern, flags);
  } catch (first) {
    // ECMAScript spellings RE2 writes otherwise (\u{…}, \/): translate, then try once more.
    try {
      re = RE2JS.compile(RE2JS.translateRegExp(pattern), flags);
    } catch {
      throw new Error(`pattern ${JSON.stringify(pattern)} cannot run in linear time (RE2): ${(first as Error).message}`);
    }
  }
  if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, re);
  return re;
}

/** ajv's `code.regExp`: an object with test(), on RE2. `toString` keys ajv's scope (one per pattern). */
export function re2RegExp(pattern: string, _flags: string): { test(s: string): boolean; toString(): string } {
  const re = linearPattern(pattern);
  return { test: (s: string) => re.matcher(s).find(), toString: () => `/${pattern}/re2` };
}
re2RegExp.code = 'linearRegExp';

/** A format's regular expression on RE2 when RE2 can run it, else undefined. */
export function linearFormat(rx: RegExp): ((s: string) => boolean) | undefined {
  try {
    const re = linearPattern(rx.source, rx.flags.includes('i'));
    return (s: string) => re.matcher(s).find();
  } catch {
    return undefined;
  }
}

/** Paths (under `root`) of every pattern of a schema document that cannot run in linear time, with why. */
export function nonLinearPatterns(doc: unknown, root = 'body'): { property: string; pattern: string; message: string }[] {
  const found: { property: string; pattern: string; message: string }[] = [];
  const check = (pattern: string, property: string) => {
    try {
      linearPattern(pattern);
    } catch (err) {
      found.push({ property, pattern, message: (err as Error).message });
    }
  };
  const walk = (node: unknown, path: string, depth: number): void => {
    if (depth > 200 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${path}[${i}]`, depth + 1));
    for (const [k, v] of Object.entries(node)) {
      // Values, not schemas: a property called "pattern" inside them is data.
      if (k === 'enum' || k === 'const' || k === 'default' || k === 'examples') continue;
      if (k === 'pattern' && typeof v === 'string') check(v, `${path}.pattern`);
      else if (k === 'patternProperties' && v && typeof v === 'object' && !Array.isArray(v)) {
        for (const [p, sub] of Object.entries(v)) {
          check(p, `${path}.patternProperties.${p}`);
          walk(sub, `${path}.patternProperties.${p}`, depth + 1);
        }
      } else walk(v, `${path}.${k}`, depth + 1);
    }
  };
  walk(doc, root, 0);
  return found;
}
