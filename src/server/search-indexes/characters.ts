/**
 * Characters as the description counts them (lengths of names, labels, comments): code points,
 * not UTF-16 units. An emoji is one character though `'😀'.length` is 2.
 */
export function characters(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
