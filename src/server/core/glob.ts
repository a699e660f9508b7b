// Path globs (`*` any run of characters but '/', `**` any run including '/', `?` one character
// but '/', or itself for fault rules, whose globs take `*` and `**` only), matched in linear
// time; the one matcher of the request journal's filters and of fault rules: a backtracking regular expression takes exponential time on
// a glob such as `/**a**a**a**b` against a long path, and a glob comes from whoever calls the
// sandbox's admin API. The matcher simulates the glob's automaton (Thompson's construction): one
// pass over the path, holding the set of glob positions still possible, so the cost is at most
// path length x (wildcards + 1).

/** Longest glob accepted (verify bodies, fault rules): the cost bound above. */
export const MAX_GLOB_LENGTH = 1024;

type Token = { kind: 'char'; ch: string } | { kind: 'one' } | { kind: 'star' } | { kind: 'globstar' };

export interface Glob {
  readonly source: string;
  matches(path: string): boolean;
}

export interface GlobOptions {
  /** `?` is one character but '/' (the default: journal filters), or false: `?` is itself (fault rules). */
  questionMark?: boolean;
}

const compiled = new Map<string, Glob>();

/** The glob, compiled once (a journal filter's glob is tested on every entry, a fault rule's on every request). */
export function glob(source: string, options: GlobOptions = {}): Glob {
  const questionMark = options.questionMark !== false;
  const key = `${questionMark ? '?' : '='}${source}`;
  let g = compiled.get(key);
  if (!g) {
    g = compile(source, questionMark);
    if (compiled.size >= 256) compiled.clear();
    compiled.set(key, g);
  }
  return g;
}

function compile(source: string, questionMark: boolean): Glob {
  if (source.length > MAX_GLOB_LENGTH) throw new Error(`a glob is at most ${MAX_GLOB_LENGTH} characters`);
  const tokens: Token[] = [];
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '*') {
      let n = 1;
      while (source[i + 1] === '*') i++, n++;
      const kind = n >= 2 ? 'globstar' : 'star';
      // Adjacent wildcards collapse (so the closure below is one step): `*` next to `**` is `**`.
      const last = tokens[tokens.length - 1];
      if (last && (last.kind === 'star' || last.kind === 'globstar')) {
        if (kind === 'globstar') tokens[tokens.length - 1] = { kind };
        continue;
      }
      tokens.push({ kind });
    } else if (ch === '?' && questionMark) tokens.push({ kind: 'one' });
    else tokens.push({ kind: 'char', ch });
  }
  const end = tokens.length;
  // Per token: 0 a character, 1 `?`, 2 `*`, 3 `**`; and its character code.
  const kinds = Uint8Array.from(tokens, (t) => (t.kind === 'char' ? 0 : t.kind === 'one' ? 1 : t.kind === 'star' ? 2 : 3));
  const codes = Uint16Array.from(tokens, (t) => (t.kind === 'char' ? t.ch.charCodeAt(0) : 0));
  const SLASH = 47;
  return {
    source,
    matches(path: string): boolean {
      // Two sets of positions, swapped per character; seen[i] === stamp: i is already in the next set.
      const seen = new Uint32Array(end + 2);
      let current = new Int32Array(end + 2);
      let next = new Int32Array(end + 2);
      let stamp = 1;
      let n = 0;
      let m = 0;
      const add = (i: number) => {
        if (seen[i] === stamp) return;
        seen[i] = stamp;
        next[m++] = i;
        // A wildcard may match nothing: the position after it is reached too.
        if (i < end && kinds[i]! >= 2 && seen[i + 1] !== stamp) {
          seen[i + 1] = stamp;
          next[m++] = i + 1;
        }
      };
      add(0);
      [current, next] = [next, current];
      n = m;
      for (let p = 0; p < path.length && n; p++) {
        const c = path.charCodeAt(p);
        stamp++;
        m = 0;
        for (let k = 0; k < n; k++) {
          const i = current[k]!;
          if (i === end) continue;
          const kind = kinds[i]!;
          if (kind === 0) {
            if (codes[i] === c) add(i + 1);
          } else if (kind === 1) {
            if (c !== SLASH) add(i + 1);
          } else if (kind === 3 || c !== SLASH) add(i);
        }
        [current, next] = [next, current];
        n = m;
      }
      for (let k = 0; k < n; k++) if (current[k] === end) return true;
      return false;
    },
  };
}
