import { pointMatchOf, textMatchOf } from '../../../src/search/answer/record-match';
import { StepAnswer } from '../../../src/search/pipeline/text-search-state';
import { SearchPlan } from '../../../src/search/planning/search-planner';
import { buildTextQuery } from '../../../src/search/query/text-query';
import { searchRow } from '../../helpers/search-rows';

const row = (address: string, distance: number | null = null) => searchRow({ address, distance });
const answer = (query: string, over: Partial<StepAnswer> = {}): StepAnswer => ({
  page: { total: 1, totalExact: true, codeMatched: false, rows: [] },
  match: 'text',
  searched: buildTextQuery(query)!,
  places: [],
  corrections: [],
  ...over,
});

describe('textMatchOf', () => {
  it('is exact when the address holds every word, in any order and spelling the search treats as one', () => {
    expect(textMatchOf(row('Herrengasse 35, 9490 Vaduz'), answer('vaduz herrengasse 35'))).toEqual({ kind: 'exact' });
    expect(textMatchOf(row('12 Main Street, Dallas, TX'), answer('12 main st dallas'))).toEqual({ kind: 'exact' });
  });

  it('is prefix when the last word is only the start of an address word', () => {
    expect(textMatchOf(row('Herrengasse 35, 9490 Vaduz'), answer('herrengasse 35 vad'))).toEqual({ kind: 'prefix' });
  });

  it('is partial, naming the words the address lacks, when others matched elsewhere (a region, a place)', () => {
    expect(textMatchOf(row('Herrengasse 35, 9490 Vaduz'), answer('herrengasse 35 liechtenstein'))).toEqual({
      kind: 'partial',
      unmatched: ['liechtenstein'],
    });
  });

  it("is exact on another name of the record's own town that the answer was found through, not on its country's", () => {
    const koeln = {
      id: 'koeln',
      name: 'Köln',
      altNames: 'Cologne | Colonia | North Rhine-Westphalia | Germany | DE',
    } as StepAnswer['places'][number];
    const inKoeln = searchRow({ address: 'Köln, North Rhine-Westphalia, Germany', localityId: 'koeln' });
    expect(textMatchOf(inKoeln, answer('cologne', { places: [koeln] }))).toEqual({ kind: 'exact' });
    const elsewhere = searchRow({ address: 'Bonn, North Rhine-Westphalia, Germany', localityId: 'bonn' });
    expect(textMatchOf(elsewhere, answer('cologne', { places: [koeln] }))).toEqual({
      kind: 'partial',
      unmatched: ['cologne'],
    });
    const vaduz = { id: 'vaduz', name: 'Vaduz', altNames: 'Liechtenstein | LI' } as StepAnswer['places'][number];
    const inVaduz = searchRow({ address: 'Herrengasse 35, 9490 Vaduz', localityId: 'vaduz' });
    expect(textMatchOf(inVaduz, answer('herrengasse 35 liechtenstein', { places: [vaduz] }))).toEqual({
      kind: 'partial',
      unmatched: ['liechtenstein'],
    });
  });

  it('says which words were corrected', () => {
    const corrections = [{ from: 'herengasse', to: 'herrengasse' }];
    expect(textMatchOf(row('Herrengasse 35'), answer('herrengasse', { match: 'corrected', corrections }))).toEqual({
      kind: 'corrected',
      corrections,
    });
  });

  it('gives the place and the distance for imagery near a named place', () => {
    const place = { label: 'Vaduz, Liechtenstein' } as StepAnswer['places'][number];
    expect(textMatchOf(row('Aeulestrasse 5', 84.23), answer('vaduz', { match: 'nearby', places: [place] }))).toEqual({
      kind: 'nearby',
      place: 'Vaduz, Liechtenstein',
      distance_m: 84.2,
    });
  });

  it('marks the similarity fallback as a guess, with the words the address lacks', () => {
    expect(textMatchOf(row('Herrengasse 35'), answer('herrengase 35', { match: 'fallback' }))).toEqual({
      kind: 'fallback',
      unmatched: ['herrengase'],
    });
  });

  it('counts a location code equal to the query as exact though the address does not hold it', () => {
    const page = { total: 1, totalExact: true, codeMatched: true, rows: [] };
    expect(textMatchOf(row('Herrengasse 7'), answer('LI-9490-35', { page }))).toEqual({ kind: 'exact' });
  });
});

describe('textMatchOf after a fallback by parts', () => {
  const schaan = { id: 'p-schaan', kind: 'locality', name: 'Schaan', label: 'Schaan, Liechtenstein' };
  const places = [{ ...schaan, altNames: '', importance: 0.5, lon: 9.5, lat: 47.16, similarity: null, rank: 1 }];

  it('says the level, the words of the finer parts that found nothing and the place of the part that answered', () => {
    const found = answer('schaan', { places, fallback: { level: 'locality', unmatched: ['herrengasse'] } });
    expect(textMatchOf(row('Landstrasse 19, 9494 Schaan'), found)).toEqual({
      kind: 'fallback_locality',
      unmatched: ['herrengasse'],
      place: 'Schaan, Liechtenstein',
    });
  });

  it('gives the distance from the place when its surroundings answered', () => {
    const around = answer('schaan', {
      match: 'nearby',
      places,
      fallback: { level: 'country', unmatched: ['12', 'fakestrasse'] },
    });
    expect(textMatchOf(row('Landstrasse 19, 9494 Schaan', 84.21), around)).toMatchObject({
      kind: 'fallback_country',
      distance_m: 84.2,
    });
  });
});

describe('pointMatchOf', () => {
  it('is nearby with the distance for a point search, filter without one', () => {
    const anchored = { anchor: { lat: 47.14, lon: 9.52, radiusM: 250 } } as SearchPlan;
    expect(pointMatchOf(row('x', 12.34), anchored)).toEqual({ kind: 'nearby', distance_m: 12.3 });
    expect(pointMatchOf(row('x'), { anchor: null } as SearchPlan)).toEqual({ kind: 'filter' });
  });
});
