import { describe, expect, it } from 'vitest';
import { splitWords } from '../../src/cli/editor.js';
import { parseJson } from '../../src/ops/files/safe-files.js';
import { unifiedDiff } from '../../src/ops/runs/diff.js';

describe('splitWords (EDITOR into words, no shell)', () => {
  it('splits on blanks and keeps quoted words whole', () => {
    expect(splitWords('code --wait')).toEqual(['code', '--wait']);
    expect(splitWords(`"/opt/my editor/bin/ed" -w 'a b' c\\ d ""`)).toEqual(['/opt/my editor/bin/ed', '-w', 'a b', 'c d', '']);
    expect(splitWords(`"say \\"hi\\"" 'it''s'`)).toEqual(['say "hi"', 'its']);
  });
  it('expands nothing: ; $() and globs are plain characters', () => {
    expect(splitWords('vi; rm -rf $(pwd) *')).toEqual(['vi;', 'rm', '-rf', '$(pwd)', '*']);
  });
  it('an unclosed quote is a usage error', () => {
    expect(() => splitWords(`"vi`)).toThrow(/unclosed/);
  });
});

describe('parseJson', () => {
  const at = (text: string) => {
    try {
      parseJson(text, 'x');
    } catch (err) {
      return /line (\d+), column (\d+)/.exec((err as Error).message)?.slice(1).map(Number);
    }
    return null;
  };
  it('says the line and column of the first error', () => {
    expect(at('{\n  "a": 1,\n  oops\n}')).toEqual([3, 3]);
    expect(at('{"a": tru}')).toEqual([1, 7]);
    expect(at('[1,\n2,]')).toEqual([2, 3]);
    expect(at('{"a": "x')).toEqual([1, 9]);
    expect(at('{} x')).toEqual([1, 4]);
    expect(at('{"a": [1, {"b": null}]}')).toBeNull();
  });
});

describe('unifiedDiff', () => {
  it('hunks with context, removals before additions, nothing for equal texts', () => {
    const a = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n');
    const b = ['1', '2', '3', '4', 'five', '6', '7', '8', '9', '10', '11'].join('\n');
    expect(unifiedDiff(a, b, 1)).toEqual(['@@ -4,3 +4,3 @@', ' 4', '-5', '+five', ' 6', '@@ -10,1 +10,2 @@', ' 10', '+11']);
    expect(unifiedDiff(a, a)).toEqual([]);
  });
});

describe('unifiedDiff of large texts (an item body can hold about 10 MB)', () => {
  const lines = (n: number, name = (i: number) => `  "field${i}": ${i},`) => Array.from({ length: n }, (_, i) => name(i));

  it('finds a few changes far apart in 100,000 lines without a table of lines by lines', () => {
    const a = lines(100_000);
    const b = [...a];
    b[10] = '  "changed": 10,';
    b.splice(50_000, 1);
    b[99_990] = '  "changed": 99991,';
    const out = unifiedDiff(a.join('\n'), b.join('\n'), 1);
    expect(out).toEqual([
      '@@ -10,3 +10,3 @@', '   "field9": 9,', '-  "field10": 10,', '+  "changed": 10,', '   "field11": 11,',
      '@@ -50000,3 +50000,2 @@', '   "field49999": 49999,', '-  "field50000": 50000,', '   "field50001": 50001,',
      '@@ -99991,3 +99990,3 @@', '   "field99990": 99990,', '-  "field99991": 99991,', '+  "changed": 99991,', '   "field99992": 99992,',
    ]);
  });

  it('past a bound on the edits, replaces the changed block whole: every line once, removals first', () => {
    const a = lines(20_000);
    const b = lines(20_000, (i) => `  "other${i}": ${i},`);
    const out = unifiedDiff(['{', ...a, '}'].join('\n'), ['{', ...b, '}'].join('\n'), 1);
    expect(out[0]).toBe('@@ -1,20002 +1,20002 @@');
    expect(out.filter((l) => l.startsWith('-'))).toHaveLength(20_000);
    expect(out.filter((l) => l.startsWith('+'))).toHaveLength(20_000);
    expect(out.findIndex((l) => l.startsWith('+'))).toBeGreaterThan(out.findLastIndex((l) => l.startsWith('-')));
  });

  it('many scattered changes: a hunk each, numbered right to the end', () => {
    const a = lines(40_000);
    const b = a.map((l, i) => (i % 50 === 0 ? `${l} // changed` : l));
    const out = unifiedDiff(a.join('\n'), b.join('\n'), 1);
    expect(out.filter((l) => l.startsWith('@@'))).toHaveLength(800);
    expect(out.slice(0, 4)).toEqual(['@@ -1,2 +1,2 @@', '-  "field0": 0,', '+  "field0": 0, // changed', '   "field1": 1,']);
    expect(out.slice(-5)).toEqual(['@@ -39950,3 +39950,3 @@', '   "field39949": 39949,', '-  "field39950": 39950,', '+  "field39950": 39950, // changed', '   "field39951": 39951,']);
  });
});

describe('unifiedDiff on random small texts', () => {
  it('with all lines as context, reads back both texts with the fewest changes', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const text = () => Array.from({ length: Math.floor(rnd() * 12) }, () => 'abcd'[Math.floor(rnd() * 4)]!);
    for (let round = 0; round < 500; round++) {
      const a = text();
      const b = text();
      const out = unifiedDiff(a.join('\n'), b.join('\n'), 1e9).slice(1);
      if (a.join('\n') === b.join('\n')) continue;
      expect(out.filter((l) => l[0] !== '+').map((l) => l.slice(1))).toEqual(a.length ? a : ['']);
      expect(out.filter((l) => l[0] !== '-').map((l) => l.slice(1))).toEqual(b.length ? b : ['']);
      // The longest common subsequence of the lines (''.split gives one empty line), the slow way: what is not in it is changed.
      const aa = a.length ? a : [''];
      const bb = b.length ? b : [''];
      const common = (() => {
        const t = Array.from({ length: aa.length + 1 }, () => new Array<number>(bb.length + 1).fill(0));
        for (let i = aa.length - 1; i >= 0; i--) for (let j = bb.length - 1; j >= 0; j--) t[i]![j] = aa[i] === bb[j] ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
        return t[0]![0]!;
      })();
      expect(out.filter((l) => l[0] !== ' ').length).toBe(aa.length + bb.length - 2 * common);
    }
  });
});
