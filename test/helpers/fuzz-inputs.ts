import fc from 'fast-check';

// Inputs for the fuzzing of POST /search (test/e2e/fuzz.e2e.spec.ts): request bodies and extra headers.

// Strings chosen to break things: SQL, tsquery and regex syntax, control and null characters, unpaired
// surrogates, right-to-left text, combining marks, byte-order marks, very long input.
const NASTY_STRINGS = [
  "'; DROP TABLE imagery; --",
  "' OR '1'='1",
  '1; SELECT pg_sleep(10)',
  '$1',
  '%',
  '_',
  '\\',
  '\\\\',
  "a' & b:* | !c <-> d",
  '.*',
  '(a+)+$',
  '[^\\w]',
  '^$',
  '{1,100000}',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\r\n\r\n',
  '\t',
  '\uD800',
  '\uDFFF',
  'x\uDBFF',
  '\uD83D\uDE00',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  '\u200F\u200E',
  'e\u0301\u0301\u0301',
  '\uFEFF',
  '\u2028\u2029',
  '🏳️‍🌈',
  'Ω≈ç√∫',
  '𝕳𝖊𝖗𝖗𝖊𝖓𝖌𝖆𝖘𝖘𝖊',
  'Herrengasse 35',
  'Tübinger Straße',
  'x'.repeat(257),
  ' '.repeat(300),
  '__proto__',
];
const NASTY_NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '1.5',
  '1e400',
  '-1e400',
  '1e-400',
  '9007199254740993',
  '123456789012345678901234567890',
  '100',
  '101',
  '10000',
  '1E2',
  '0.0000001',
  '2.0',
];
const KEYS = [
  'query',
  'limit',
  'page',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'Query',
  '',
];

const nastyString = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 }, // any code point, lone surrogates included
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 2 },
);
const jsonString = nastyString.map((s) => JSON.stringify(s));

// JSON text built by hand, so objects can repeat keys and numbers can be any literal.
const { json } = fc.letrec<{ json: string; object: string; array: string }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonString,
    fc.constantFrom(...NASTY_NUMBERS),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
    fc.constantFrom('true', 'false', 'null'),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('json'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), nastyString), tie('json')), { maxLength: 5 })
    .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
}));

// Mostly search-shaped bodies, often valid (these reach the database), plus anything else.
const absent = fc.constant(undefined);
const field = (valid: fc.Arbitrary<string>) =>
  fc.oneof(
    { arbitrary: absent, weight: 2 },
    { arbitrary: valid, weight: 6 },
    { arbitrary: fc.constantFrom(...NASTY_NUMBERS), weight: 1 },
    { arbitrary: json, weight: 1 },
  );
const searchBody = fc
  .record({
    query: fc.oneof(
      { arbitrary: jsonString, weight: 3 },
      { arbitrary: fc.constantFrom('"Herrengasse"', '"Vaduz"', '"Stuttgart 7017"', '"Herengasse 35"'), weight: 2 },
      { arbitrary: json, weight: 1 },
    ),
    limit: field(fc.integer({ min: 1, max: 100 }).map(String)),
    // (page * limit above 10,000 is refused; the valid ranges keep most pairs inside)
    page: field(fc.integer({ min: 1, max: 100 }).map(String)),
    extra: fc.oneof(
      { arbitrary: absent, weight: 8 },
      { arbitrary: fc.tuple(fc.constantFrom(...KEYS), json), weight: 1 },
    ),
  })
  .map(({ extra, ...fields }) => {
    const pairs = Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `"${k}":${v}`);
    if (extra) pairs.splice(Math.floor(pairs.length / 2), 0, `${JSON.stringify(extra[0])}:${extra[1]}`);
    return `{${pairs.join(',')}}`;
  });

const hugeBodies = [
  `{"query":"x","a":${'['.repeat(6000)}${']'.repeat(6000)}}`,
  `{"query":"x","a":${'{"a":'.repeat(1500)}1${'}'.repeat(1500)}}`,
  `[${Array(7000).fill('0').join(',')}]`,
  JSON.stringify({ query: 'y'.repeat(17_000) }),
  `{"query":"${'\\u0000'.repeat(2500)}"}`,
];

export const body = fc.oneof(
  { arbitrary: searchBody, weight: 10 },
  { arbitrary: json, weight: 3 },
  {
    arbitrary: json.chain((text) => fc.nat({ max: Math.max(0, text.length) }).map((n) => text.slice(0, n))),
    weight: 1,
  }, // truncated
  { arbitrary: fc.uint8Array({ maxLength: 120 }).map((bytes) => Buffer.from(bytes)), weight: 1 },
  { arbitrary: fc.constantFrom(...hugeBodies), weight: 1 },
);

export const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
// Random extra headers; protocol-level ones (framing, Expect, Host) are the HTTP client's business.
const RESERVED = new Set([
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'expect',
  'upgrade',
  'content-type',
  'x-api-key',
  'te',
  'trailer',
  'keep-alive',
]);
export const headerName = fc
  .oneof(
    fc.constantFrom(
      'accept',
      'accept-encoding',
      'content-encoding',
      'x-forwarded-for',
      'origin',
      'cookie',
      'authorization',
      'if-none-match',
      'range',
      'user-agent',
      'x-http-method-override',
    ),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
  )
  .filter((n) => !RESERVED.has(n));
