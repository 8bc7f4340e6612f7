import { Client } from 'pg';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { demoFeatures } from '../../src/seed/demo-dataset';
import { splitWords, tokenize } from '../../src/search/query/tokenize';
import { foldText } from '../../src/search/text-fold/text-fold';
import { buildCatalogue } from '../relevance/relevance-catalogue';
import { withClient } from '../helpers/places';
import { textRuleDatabase, TextRuleDatabase } from '../helpers/text-rule-database';
import { currentKind, TestDatabaseKind } from '../setup/test-database';

// One rule splits text into words: the service's (tokenize: runs of letters, marks and numbers of the
// folded text). The database indexes to_tsvector('simple', lis_search_text(text)), whose words must be
// the same, in the same order, for every text it stores: the world gazetteer's names, labels and other
// names, the demo imagery's addresses and the relevance catalogue's. On the test database, and on a
// built-in database too when the tests run on a server (its locale is C: PostgreSQL's parser reads text
// otherwise there).
// Every assigned code point of the first two Unicode planes (unassigned ones are in no stored text).
const EVERY_CHARACTER = Array.from({ length: 0x1ffff }, (_, i) => i + 1)
  .filter((cp) => cp < 0xd800 || cp > 0xdfff)
  .map((cp) => String.fromCodePoint(cp))
  .filter((c) => !/\p{Cn}/u.test(c));
interface DemoFeature {
  properties: { address: string };
}

const databases: TestDatabaseKind[] = currentKind() === 'server' ? ['server', 'embedded'] : ['embedded'];

const inOrder = (words: string[], within: string[]) => {
  let at = 0;
  for (const w of words) {
    at = within.indexOf(w, at) + 1;
    if (at === 0) return false;
  }
  return true;
};

async function demoAddresses(): Promise<string[]> {
  const out: string[] = [];
  for await (const { feature } of demoFeatures()) out.push((feature as DemoFeature).properties.address);
  return out;
}

function gazetteerTexts(): string[] {
  const texts = new Set<string>();
  for (const p of buildWorldGazetteer()) {
    texts.add(p.name);
    texts.add(p.label);
    for (const alt of p.altNames.split(' | ')) if (alt) texts.add(alt);
  }
  return [...texts];
}

describe.each(databases)('words of a text, in TypeScript and in the database (%s)', (kind) => {
  let url: string;
  let db: TextRuleDatabase | undefined;

  // The database's words of each text in order (a tsvector's lexemes by position), joined by spaces.
  const databaseWords = (texts: string[]) =>
    withClient(async (c: Client) => {
      const { rows } = await c.query<{ words: string[] }>(
        `SELECT array_agg(coalesce(w.words, '') ORDER BY x.i) AS words
         FROM unnest($1::text[]) WITH ORDINALITY AS x(t, i)
         CROSS JOIN LATERAL (
           SELECT string_agg(u.lexeme, ' ' ORDER BY p.p) AS words
           FROM unnest(to_tsvector('simple', lis_search_text(x.t))) u, unnest(u.positions) AS p(p)
         ) w`,
        [texts],
      );
      return rows[0].words;
    }, url);
  // Texts whose database words are not tokenize's split (its words before the noise rules drop a
  // query's stray letters and symbols), or do not hold tokenize's words in order.
  const unlike = async (texts: string[]) => {
    const words = await databaseWords(texts);
    return texts
      .map((t, i) => ({ text: t, split: splitWords(t).join(' '), tokenize: tokenize(t), database: words[i] }))
      .filter((d) => d.split !== d.database || !inOrder(d.tokenize, d.database.split(' ')))
      .map(({ text, split, database }) => ({ text, split, database }));
  };

  beforeAll(async () => {
    // Where the tests run on the other kind: the extension and the two functions as the migrations leave them.
    db = await textRuleDatabase(kind, ['lis_normalize.sql', 'lis_search_text.sql']);
    ({ url } = db);
  }, 120_000);
  afterAll(async () => db?.close());

  it('splits at every ASCII punctuation mark, as tokenize does', async () => {
    const text =
      'Biel/Bienne, Washington, D.C., Herrengasse 35/1, 3.5, -12, foo@bar.com, x_y, Fürst-Franz-Josef-Strasse';
    expect((await databaseWords([text]))[0]).toBe(
      'biel bienne washington d c herrengasse 35 1 3 5 12 foo bar com x y furst franz josef strasse',
    );
    const punctuation = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
    expect(await unlike(punctuation.map((p) => `ab${p}cd 12${p}34 ab${p}12`))).toEqual([]);
  });

  // Where the database's C library knows a character JavaScript counts as a letter or number less well
  // (superscript digits, letters of recent Unicode versions), its parser splits a word there: logged.
  it(`splits at each of ${EVERY_CHARACTER.length.toLocaleString('en')} characters as tokenize does`, async () => {
    const differ = await unlike(EVERY_CHARACTER.map((c) => `ab${c}cd`));
    const shown = (list: typeof differ) =>
      list.map(({ text, split, database }) => {
        const c = [...text][2];
        return `U+${c.codePointAt(0)!.toString(16).toUpperCase()} ${JSON.stringify([split, database])}`;
      });
    const unknownLetter = (d: (typeof differ)[number]) =>
      /[\p{L}\p{M}\p{N}]/u.test(foldText([...d.text][2])) && !d.split.includes(' ');
    console.log(
      `${kind}: the parser splits words at ${differ.filter(unknownLetter).length} characters tokenize counts in a word: ` +
        shown(differ.filter(unknownLetter)).slice(0, 40).join(', '),
    );
    expect(shown(differ.filter((d) => !unknownLetter(d)))).toEqual([]);
  }, 120_000);

  it('gives every name, label and other name of the world gazetteer the words tokenize gives', async () => {
    const texts = gazetteerTexts();
    expect(texts.length).toBeGreaterThan(90_000);
    expect(await unlike(texts)).toEqual([]);
  }, 120_000);

  it('gives every demo and relevance catalogue address the words tokenize gives', async () => {
    const addresses = [...new Set([...(await demoAddresses()), ...buildCatalogue().records.map((r) => r.address)])];
    expect(addresses.length).toBeGreaterThan(30_000);
    expect(await unlike(addresses)).toEqual([]);
  }, 120_000);
});
