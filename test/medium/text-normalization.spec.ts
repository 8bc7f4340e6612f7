import { Client } from 'pg';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { tokenize } from '../../src/search/search-query';
import { withClient } from '../helpers/places';

// One normalisation: queries are folded in TypeScript (foldText, inside tokenize), addresses and place
// names in the database (lis_normalize, unaccent's rules). They must give the same words, or a word
// typed exactly as stored would not match: checked on every name of the world gazetteer (94,779 names
// in many scripts and alphabets; the okina and typographic apostrophes once differed).
describe('text normalisation, in TypeScript and in the database', () => {
  it('gives the same words for every name of the world gazetteer', async () => {
    const names = [...new Set(buildWorldGazetteer().map((p) => p.name))];
    expect(names.length).toBeGreaterThan(50_000);
    const folded = await withClient(async (c: Client) => {
      const { rows } = await c.query<{ norm: string }>(
        'SELECT lis_normalize(n) AS norm FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i',
        [names],
      );
      return rows.map((r) => r.norm);
    });
    const differ = names.filter((name, i) => tokenize(name).join(' ') !== tokenize(folded[i]).join(' '));
    expect(differ).toEqual([]);
  });
});
