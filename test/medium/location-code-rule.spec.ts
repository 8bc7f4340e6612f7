import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { locationCodeOf } from '../../src/search/query/location-code';
import { relevanceFixture } from '../helpers/fixtures';
import { withClient } from '../helpers/places';
import { SCHEMA_FILE } from '../sql/database-schema';
import { createThrowawayDatabase, currentKind, TestDatabaseKind, ThrowawayDatabase } from '../setup/test-database';

// One location-code rule, in two homes: the database stores an address that is an identifier as its code
// (imagery.address_code, a generated column: letters and digits lower-cased without separators, for
// addresses of letter/digit groups joined by one of - _ . / or a space, with no lower-case letter or no
// space and a digit), and a query is read as a code in TypeScript (locationCodeOf, more lenient: any case,
// runs of separators, spaces around). They must agree: an address stored as a code is found by typing it
// as it is or in any of those ways, and a query read as a code is the code of the address written as the
// strict rule accepts it. The column's own expression, as the migrated database holds it, is evaluated on
// the test database and, when that is a server, on a built-in database too.

// Real inputs: every name, other name, postcode, region and country code of the world gazetteer, the
// relevance fixture's addresses, and the edges of the rule.
function realInputs(): string[] {
  const inputs = new Set<string>();
  for (const p of buildWorldGazetteer()) {
    for (const text of [p.name, p.label, p.postcode, p.regionCode, p.countryCode, ...(p.altNames ?? '').split(' | ')])
      if (text) inputs.add(text);
  }
  for (const f of relevanceFixture()) inputs.add(f.properties.address);
  const edge = [
    'LI-9490-35',
    'li 9490 35',
    'ZRH',
    '9490',
    'A12-B',
    'Herrengasse 35',
    'Main St',
    'AB12 CD',
    'ab12cd',
    'ab 12',
    'X'.repeat(64),
    'X'.repeat(65),
    'A-'.repeat(32) + 'B',
    ' LI-9490 ',
    'AB--12',
    'AB-',
    '-AB',
    'A/B.C_D E',
    'A\tB',
    'A\u00a0B',
    'ＺＲＨ',
    '١٢٣',
    'İSTANBUL-34',
    'Straße-1',
    'a',
    'A',
    '0',
    '',
  ];
  for (const e of edge) inputs.add(e);
  return [...inputs];
}

// The ways a code may be typed: as it is, in lower or upper case, its separators as spaces, dashes, none
// or several, with spaces around; up to the 64 characters a query is read as a code in (as an address is
// stored as one).
function typings(address: string): string[] {
  const groups = address.split(/[-_./ ]/);
  const typed = [
    address,
    address.toLowerCase(),
    address.toUpperCase(),
    groups.join(' '),
    groups.join('-').toLowerCase(),
    groups.join(''),
    groups.join(' . '),
    `  ${address}\t`,
  ];
  return typed.filter((t) => t.trim().length <= 64);
}

// A query written as the stored rule wants an identifier: its ASCII letters in upper case, its groups
// joined by one dash.
const strictly = (query: string) =>
  query
    .trim()
    .replace(/[a-z]/g, (c) => c.toUpperCase())
    .replace(/[-_./ ]+/g, '-');

const databases: TestDatabaseKind[] = currentKind() === 'server' ? ['server', 'embedded'] : ['embedded'];

describe.each(databases)('the location-code rule, in TypeScript and in the database (%s)', (kind) => {
  const inputs = realInputs();
  let url = process.env.DATABASE_URL!;
  let other: ThrowawayDatabase | undefined;
  let expression: string;
  const codesOf = (texts: string[]) =>
    withClient(async (c: Client) => {
      const { rows } = await c.query<{ codes: Array<string | null> }>(
        `SELECT array_agg(${expression} ORDER BY i) AS codes FROM unnest($1::text[]) WITH ORDINALITY AS u(address, i)`,
        [texts],
      );
      return rows[0].codes;
    }, url);

  beforeAll(async () => {
    expression = await withClient(async (c) => {
      const { rows } = await c.query<{ expression: string }>(`
        SELECT pg_get_expr(d.adbin, d.adrelid) AS expression
        FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
        WHERE d.adrelid = 'imagery'::regclass AND a.attname = 'address_code' AND a.attgenerated = 's'`);
      return rows[0].expression;
    });
    if (kind !== currentKind()) {
      other = await createThrowawayDatabase(kind);
      url = other.url;
    }
  }, 120_000);
  afterAll(async () => other?.drop());

  it('reads the rule from the migrated database: the address_code column, as schema.sql shows it', () => {
    expect(expression).toContain('[^A-Za-z0-9]');
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toContain(`address_code text GENERATED ALWAYS AS (${expression}) STORED`);
  });

  it(`finds every address stored as a code among ${inputs.length.toLocaleString('en')} real inputs by typing it, in every way`, async () => {
    const stored = await codesOf(inputs);
    const codes = inputs.map((address, i) => ({ address, code: stored[i] })).filter((r) => r.code !== null);
    expect(codes.length).toBeGreaterThan(40_000); // postcodes, region and country codes, ...
    expect(codes.length).toBeLessThan(inputs.length / 2); // ... not every name
    const unfound = codes.flatMap(({ address, code }) =>
      typings(address)
        .filter((typed) => locationCodeOf(typed) !== code)
        .map((typed) => ({ address, typed, code, query: locationCodeOf(typed) })),
    );
    expect(unfound).toEqual([]);
  });

  it('reads a query as the code of the address written as the stored rule accepts it', async () => {
    const queries = inputs.filter((q) => locationCodeOf(q) !== null);
    expect(queries.length).toBeGreaterThan(50_000);
    const stored = await codesOf(queries.map(strictly));
    const unlike = queries
      .map((q, i) => ({ q, query: locationCodeOf(q), stored: stored[i] }))
      .filter((r) => r.query !== r.stored);
    expect(unlike).toEqual([]);
  });

  it('reads no code where the stored rule cannot store one', async () => {
    const rejected = inputs.filter((q) => locationCodeOf(q) === null);
    expect(rejected.length).toBeGreaterThan(10_000);
    const stored = await codesOf([...rejected, ...rejected.map(strictly)]);
    expect(rejected.filter((_, i) => stored[i] !== null || stored[rejected.length + i] !== null)).toEqual([]);
  });
});
