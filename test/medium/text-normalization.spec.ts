import { Client } from 'pg';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { adoptDatabaseFolds, foldText } from '../../src/search/text-fold/text-fold';
import UNACCENT from '../../src/search/text-fold/unaccent-rules.json';
import { TextFoldRepository } from '../../src/search/text-fold/text-fold.repository';
import { testConfig } from '../helpers/test-app';
import { withClient } from '../helpers/places';
import { currentKind } from '../setup/test-database';
import { PrismaService } from '../../src/database/prisma.service';

// One normalisation: queries are folded in TypeScript (foldText), addresses and place names in the
// database (lis_normalize: lower(unaccent())). foldText follows the database's unaccent rules (the
// committed unaccent-rules.json, corrected by the database's own answers when the service starts:
// TextFoldRepository), so both give exactly the same text for every character and every name.
const each = (fn: 'lis_normalize' | 'unaccent', texts: string[]) =>
  withClient(async (c: Client) => {
    const { rows } = await c.query<{ folded: string[] }>(
      `SELECT array_agg(${fn}(t) ORDER BY i) AS folded FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i)`,
      [texts],
    );
    return rows[0].folded;
  });
const lisNormalize = (texts: string[]) => each('lis_normalize', texts);

// Every code point of the Basic Multilingual Plane and the Supplementary Multilingual Plane (Latin,
// Greek, Cyrillic, Hangul, Indic scripts, compatibility and full-width forms, mathematical letters, ...).
const EVERY_CHARACTER = Array.from({ length: 0x1ffff }, (_, i) => i + 1)
  .filter((cp) => cp < 0xd800 || cp > 0xdfff)
  .map((cp) => String.fromCodePoint(cp));

describe('text normalisation, in TypeScript and in the database', () => {
  let prisma: PrismaService;
  let differ: string[];

  beforeAll(async () => {
    prisma = new PrismaService(testConfig());
    await prisma.onModuleInit();
    differ = await new TextFoldRepository(prisma).calibrate();
  });
  afterAll(async () => {
    adoptDatabaseFolds([], []);
    await prisma.onModuleDestroy();
  });

  // The committed rules are the built-in database's own; a server of another PostgreSQL release has others.
  it('unaccent() on the built-in database applies exactly the committed rules', async () => {
    const unaccented = await each('unaccent', EVERY_CHARACTER);
    const rules: Record<string, string> = UNACCENT.rules;
    const unlike = EVERY_CHARACTER.filter((c, i) => (Object.hasOwn(rules, c) ? rules[c] : c) !== unaccented[i]);
    if (currentKind() === 'embedded') expect(unlike).toEqual([]);
    else console.log(`unaccent() on the server: ${unlike.length} characters unlike the committed rules`);
    console.log(`lis_normalize: ${differ.length} characters unlike the committed rules and lower case (its own apply)`);
  });

  it(`folds each of ${EVERY_CHARACTER.length.toLocaleString('en')} characters as lis_normalize does`, async () => {
    const folded = await lisNormalize(EVERY_CHARACTER);
    const unlike = EVERY_CHARACTER.map((c, i) => [c, foldText(c), folded[i]])
      .filter(([, ts, db]) => ts !== db)
      .map(([c, ts, db]) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()} ${c}: ${JSON.stringify([ts, db])}`);
    expect(unlike).toEqual([]);
  });

  it('folds every name of the world gazetteer as lis_normalize does', async () => {
    const names = [...new Set(buildWorldGazetteer().map((p) => p.name))];
    expect(names.length).toBeGreaterThan(50_000);
    const folded = await lisNormalize(names);
    expect(names.filter((name, i) => foldText(name) !== folded[i])).toEqual([]);
  });
});
