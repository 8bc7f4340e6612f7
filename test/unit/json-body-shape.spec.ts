import { checkJsonShape, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../../src/common/json-body.middleware';

const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

describe('checkJsonShape', () => {
  it('accepts ordinary bodies up to the depth and width bounds', () => {
    expect(checkJsonShape({ query: 'Vaduz', limit: 10, page: 1 })).toBeUndefined();
    expect(checkJsonShape(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(checkJsonShape({ a: Array(MAX_JSON_MEMBERS).fill(0) })).toBeUndefined();
    expect(checkJsonShape('text')).toBeUndefined();
    expect(checkJsonShape(null)).toBeUndefined();
    expect(checkJsonShape({ query: 'emoji 😀 and RTL \u202Eمرحبا' })).toBeUndefined();
  });

  it('refuses nesting deeper than the bound, however deep, without recursing', () => {
    expect(checkJsonShape(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(checkJsonShape(deep)?.details).toEqual([
      { field: '(body)', message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`) },
    ]);
  });

  it('refuses arrays and objects with too many members, naming the field', () => {
    const e = checkJsonShape({ query: 'x', ids: Array(MAX_JSON_MEMBERS + 1).fill(1) });
    expect(e?.details).toEqual([{ field: 'ids', message: `ids must not have more than ${MAX_JSON_MEMBERS} members` }]);
    const wide = Object.fromEntries(Array.from({ length: MAX_JSON_MEMBERS + 1 }, (_, i) => [`k${i}`, i]));
    expect(checkJsonShape(wide)?.details?.[0].field).toBe('(body)');
  });

  it('refuses unpaired surrogates in values and names, and keeps them out of the message', () => {
    expect(checkJsonShape({ query: 'a\uD800b' })?.details?.[0]).toEqual({
      field: 'query',
      message: 'query must be well-formed Unicode text (it has an unpaired surrogate)',
    });
    expect(checkJsonShape({ query: '\uDFFF' })).toBeDefined();
    expect(checkJsonShape({ query: 'pair \uD83D\uDE00 ok' })).toBeUndefined();
    const byName = checkJsonShape({ ['bad\uDC00']: 1 });
    expect(byName?.details?.[0].field).toBe('bad\uFFFD');
    expect(byName?.message).not.toMatch(/[\uD800-\uDFFF]/);
  });

  it.each([
    ['{"query":"a","__proto__":{"isAdmin":true}}', '__proto__'],
    ['{"query":"a","constructor":1}', 'constructor'],
    ['{"query":"a","toString":1}', 'toString'],
    ['{"query":"a","valueOf":1,"hasOwnProperty":1}', 'valueOf'],
    ['{"query":"a","near":{"lat":1,"lon":2,"__proto__":{}}}', 'near.__proto__'],
    ['{"query":"a","near":{"constructor":{"prototype":1}}}', 'near.constructor'],
    ['{"query":"a","x":[{"prototype":1}]}', 'x.0.prototype'],
  ])('refuses names of Object.prototype members and prototype at any depth: %s', (text, field) => {
    expect(checkJsonShape(JSON.parse(text))?.details).toEqual([{ field, message: `${field} should not exist` }]);
  });

  it('accepts those words as values, and names that merely contain them', () => {
    expect(checkJsonShape({ query: '__proto__ constructor toString', toStringy: 1 })).toBeUndefined();
  });
});
