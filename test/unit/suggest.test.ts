import { describe, expect, it } from 'vitest';
import { similar, unknownName } from '../../src/cli/suggest.js';

describe('did you mean', () => {
  it('suggests close names: typos, swapped letters, prefixes', () => {
    expect(similar('dmeo', ['demo', 'prod', 'staging'])).toEqual(['demo']);
    expect(similar('contnet', ['content', 'content-fr', 'slots'])).toEqual(['content']);
    expect(similar('cont', ['content', 'slots'])).toEqual(['content']);
    expect(similar('zzz', ['content', 'slots'])).toEqual([]);
  });

  it('an unknown name is not found (exit 1) with a suggestion, else the names there are', () => {
    const e = unknownName('repository named', 'contnet', ['content', 'slots'], 'in this hub', 'Create one.');
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe("No repository named 'contnet' in this hub");
    expect(e.hint).toBe("Did you mean 'content'?");
    expect(unknownName('repository named', 'zzz', ['content', 'slots'], 'in this hub', 'Create one.').hint).toBe('Known: content, slots');
    expect(unknownName('hub named', 'x', [], 'is visible', 'Create one.').hint).toBe('Create one.');
  });
});
