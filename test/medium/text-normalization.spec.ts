import { Client } from 'pg';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { foldText } from '../../src/search/text-fold/text-fold';
import UNACCENT from '../../src/search/text-fold/unaccent-rules.json';
import { withClient } from '../helpers/places';
import { textRuleDatabase, TextRuleDatabase } from '../helpers/text-rule-database';
import { currentKind, TestDatabaseKind } from '../setup/test-database';

// One normalisation: queries are folded in TypeScript (foldText), addresses and place names in the
// database (lis_normalize: lower(unaccent())). foldText follows the database's unaccent rules (the
// committed unaccent-rules.json, corrected by the database's own answers when the service starts:
// TextFoldRepository), so both give exactly the same text for every character and every name: on the
// test database, and on a built-in database too when the tests run on a server.

// Every code point of the Basic Multilingual Plane and the Supplementary Multilingual Plane (Latin,
// Greek, Cyrillic, Hangul, Indic scripts, compatibility and full-width forms, mathematical letters, ...).
const EVERY_CHARACTER = Array.from({ length: 0x1ffff }, (_, i) => i + 1)
  .filter((cp) => cp < 0xd800 || cp > 0xdfff)
  .map((cp) => String.fromCodePoint(cp));

const databases: TestDatabaseKind[] = currentKind() === 'server' ? ['server', 'embedded'] : ['embedded'];

describe.each(databases)('text normalisation, in TypeScript and in the database (%s)', (kind) => {
  let url: string;
  let differ: string[];
  let db: TextRuleDatabase | undefined;
  const each = (fn: 'lis_normalize' | 'unaccent', texts: string[]) =>
    withClient(async (c: Client) => {
      const { rows } = await c.query<{ folded: string[] }>(
        `SELECT array_agg(${fn}(t) ORDER BY i) AS folded FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i)`,
        [texts],
      );
      return rows[0].folded;
    }, url);

  beforeAll(async () => {
    // Where the tests run on the other kind: the extension and lis_normalize as the migrations leave it.
    db = await textRuleDatabase(kind, ['lis_normalize.sql']);
    ({ url, differ } = db);
  }, 120_000);
  afterAll(async () => db?.close());

  // The committed rules are the built-in database's own; a server of another PostgreSQL release has others.
  it('unaccent() applies the committed rules (exactly, on the built-in database)', async () => {
    const unaccented = await each('unaccent', EVERY_CHARACTER);
    const rules: Record<string, string> = UNACCENT.rules;
    const unlike = EVERY_CHARACTER.filter((c, i) => (Object.hasOwn(rules, c) ? rules[c] : c) !== unaccented[i]);
    if (kind === 'embedded') expect(unlike).toEqual([]);
    else console.log(`unaccent() on the server: ${unlike.length} characters unlike the committed rules`);
    console.log(`lis_normalize on the ${kind} database: ${differ.length} characters unlike the committed table`);
  });

  it(`folds each of ${EVERY_CHARACTER.length.toLocaleString('en')} characters as lis_normalize does`, async () => {
    const folded = await each('lis_normalize', EVERY_CHARACTER);
    const unlike = EVERY_CHARACTER.map((c, i) => [c, foldText(c), folded[i]])
      .filter(([, ts, db]) => ts !== db)
      .map(([c, ts, db]) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()} ${c}: ${JSON.stringify([ts, db])}`);
    expect(unlike).toEqual([]);
  });

  it('folds every name of the world gazetteer as lis_normalize does', async () => {
    const names = [...new Set(buildWorldGazetteer().map((p) => p.name))];
    expect(names.length).toBeGreaterThan(50_000);
    const folded = await each('lis_normalize', names);
    expect(names.filter((name, i) => foldText(name) !== folded[i])).toEqual([]);
  });
});
