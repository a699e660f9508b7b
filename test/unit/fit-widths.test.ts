import { describe, expect, it } from 'vitest';
import { fitWidths } from '../../src/output/render.js';

describe('fitWidths: tables use the width they have and never cut ids', () => {
  it('keeps natural widths when they fit', () => {
    expect(fitWidths([36, 20, 6], [true, false, false], [2, 5, 6], 100)).toEqual([36, 20, 6]);
  });

  it('shrinks the widest free-text column first and keeps ids whole', () => {
    const w = fitWidths([36, 60, 10, 40], [true, false, false, false], [2, 5, 6, 6], 100);
    expect(w[0]).toBe(36);
    expect(w[2]).toBe(10);
    expect(w.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(100);
    expect(w[1]).toBe(w[3]);
  });

  it('never goes below the floor, even when the line cannot fit', () => {
    const w = fitWidths([36, 36, 50], [true, true, false], [2, 2, 5], 40);
    expect(w).toEqual([36, 36, 5]);
  });
});
