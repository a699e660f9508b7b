import { NotFound } from '../core/errors.js';

/**
 * "Did you mean" for names, as commander does for unknown commands: the candidates within a
 * small edit distance of what was typed (at most three), closest first.
 */
export function similar(typed: string, candidates: readonly string[]): string[] {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  return candidates
    .map((c) => ({ c, d: distance(typed.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => d <= limit || c.toLowerCase().startsWith(typed.toLowerCase()))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({ c }) => c);
}

/** The error for a name nothing matches (`what`: "repository named"): a suggestion when one is close, else what exists (or how to make one). */
export function unknownName(what: string, typed: string, names: readonly string[], scope: string, createHint: string): NotFound {
  const close = similar(typed, names);
  const hint = close.length
    ? `Did you mean ${close.map((n) => `'${n}'`).join(' or ')}?`
    : names.length
      ? `Known: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`
      : createHint;
  return new NotFound(`No ${what} '${typed}' ${scope}`, hint);
}

/** Edit distance where swapping two neighbours counts as one edit (optimal string alignment). */
function distance(a: string, b: string): number {
  if (a === b) return 0;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
