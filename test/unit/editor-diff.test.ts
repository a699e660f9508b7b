import { describe, expect, it } from 'vitest';
import { splitWords } from '../../src/cli/editor.js';
import { parseJson } from '../../src/ops/safe-files.js';
import { unifiedDiff } from '../../src/ops/diff.js';

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
