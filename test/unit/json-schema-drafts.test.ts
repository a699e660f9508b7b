import { describe, expect, it } from 'vitest';
import { asDraft, compile, validate } from '../../src/server/schemas/json-schema.js';
import { linearPattern, nonLinearPatterns, re2RegExp } from '../../src/server/schemas/linear-regex.js';

// The pieces under the schema dialects (issue 22.1) and linear-time patterns (issue 24.3).

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DIALECT = 'https://schemas.example.com/cms/schema/v1/schema#';

describe('asDraft', () => {
  it('moves identity and exclusive bounds between drafts, leaving values alone', () => {
    const d4 = { $schema: DIALECT, id: 'https://x.example/a.json', properties: { n: { maximum: 5, exclusiveMaximum: true }, m: { minimum: 1, exclusiveMinimum: false }, e: { enum: [{ exclusiveMaximum: true }] } } };
    const as7 = asDraft(d4, 'draft-07') as any;
    expect(as7.$id).toBe('https://x.example/a.json');
    expect(as7.id).toBeUndefined();
    expect(as7.$schema).toBe(DRAFT_07);
    expect(as7.properties.n).toEqual({ exclusiveMaximum: 5 });
    expect(as7.properties.m).toEqual({ minimum: 1 });
    expect(as7.properties.e).toEqual({ enum: [{ exclusiveMaximum: true }] });
    const back = asDraft({ $schema: DRAFT_07, $id: 'https://x.example/b.json', properties: { n: { exclusiveMaximum: 5 } } }, 'draft-04') as any;
    expect(back.id).toBe('https://x.example/b.json');
    expect(back.properties.n).toEqual({ maximum: 5, exclusiveMaximum: true });
  });
});

describe('linear patterns', () => {
  it('gives each pattern its own scope key in ajv (two patterns in one schema stay apart)', () => {
    expect(String(re2RegExp('^a$', 'u'))).not.toBe(String(re2RegExp('^b$', 'u')));
    const fn = compile({ $schema: DRAFT_07, type: 'object', properties: { a: { type: 'string', pattern: '^a+$' }, b: { type: 'string', pattern: '^b+$' } } });
    expect(validate(fn, { a: 'aaa', b: 'bbb' })).toEqual([]);
    expect(validate(fn, { a: 'bbb', b: 'aaa' }).map((p) => p.property).sort()).toEqual(['body.a', 'body.b']);
  });

  it('matches in linear time what a backtracking engine cannot', () => {
    const started = Date.now();
    expect(linearPattern('^(a+)+$').matcher(`${'a'.repeat(5000)}!`).find()).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('names every pattern that cannot run in linear time, and none that can', () => {
    const doc = { properties: { a: { pattern: '(x)\\1' }, b: { pattern: '^\\d{3}$' }, c: { patternProperties: { '(?=y)y': {} } }, d: { enum: [{ pattern: '(x)\\1' }] } } };
    expect(nonLinearPatterns(doc).map((p) => p.property)).toEqual(['body.properties.a.pattern', 'body.properties.c.patternProperties.(?=y)y']);
  });

  it('formats on RE2 still check (email, uuid, date)', () => {
    const fn = compile({ $schema: DRAFT_07, type: 'object', properties: { e: { type: 'string', format: 'email' }, u: { type: 'string', format: 'uuid' }, d: { type: 'string', format: 'date' } } });
    expect(validate(fn, { e: 'a@b.example', u: '0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c', d: '2026-01-31' })).toEqual([]);
    expect(validate(fn, { e: 'nope', u: 'x', d: '2026-02-31' }).map((p) => p.property).sort()).toEqual(['body.d', 'body.e', 'body.u']);
  });
});
