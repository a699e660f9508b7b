import { describe, expect, it } from 'vitest';
import { acceptsJson, assertJsonContentType, parseFirstJsonValue } from '../../src/server/core/body.js';
import { ServiceError } from '../../src/server/core/errors.js';

describe('parseFirstJsonValue: only the first complete JSON value counts', () => {
  it.each([
    ['{"a":1} trailing', { a: 1 }],
    ['{"a":1}{"b":2}', { a: 1 }],
    ['  [1,2,[3]]]]]', [1, 2, [3]]],
    ['{"s":"a } \\" ] {"} garbage', { s: 'a } " ] {' }],
    ['"text" more', 'text'],
    ['42 43', 42],
    ['-1.5e3x', -1500],
    ['true,false', true],
    ['null}', null],
    ['{"nested":{"deep":[{"x":"}"}]}} tail', { nested: { deep: [{ x: '}' }] } }],
  ])('%s', (text, expected) => {
    expect(parseFirstJsonValue(text)).toEqual(expected);
  });

  it('an empty body is undefined', () => {
    expect(parseFirstJsonValue('   ')).toBeUndefined();
  });

  it.each(['{"a":', '[1,2', '{"a" 1}', 'nope', '"unterminated', '}'])('malformed %s is a 400', (text) => {
    try {
      parseFirstJsonValue(text);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).status).toBe(400);
      expect((err as ServiceError).entries[0]!.code).toBe('MALFORMED_JSON');
    }
  });
});

describe('content negotiation', () => {
  it.each([
    [null, true],
    ['*/*', true],
    ['application/json', true],
    ['application/hal+json', true],
    ['application/json, text/plain, */*', true],
    ['text/html', false],
    ['application/xml', false],
    ['application/json;q=0, text/html', false],
  ])('Accept %s -> %s', (accept, ok) => {
    expect(acceptsJson(accept)).toBe(ok);
  });

  it('JSON media types pass, others are 415', () => {
    expect(() => assertJsonContentType('application/json; charset=utf-8', '{}')).not.toThrow();
    expect(() => assertJsonContentType('application/hal+json', '{}')).not.toThrow();
    expect(() => assertJsonContentType(null, '')).not.toThrow();
    expect(() => assertJsonContentType('text/plain', 'x')).toThrow(expect.objectContaining({ status: 415 }));
    expect(() => assertJsonContentType(null, 'name=x')).toThrow(expect.objectContaining({ status: 415 }));
  });
});
