import {
  coarserParts,
  streetLineAndTown,
  withoutNumber,
  withoutPlusFour,
} from '../../../src/search/pipeline/fallback-by-parts.step';
import { buildTextQuery } from '../../../src/search/query/text-query';
import { place, run } from '../../helpers/scripted-search-steps';

// Fallback by parts: when the whole query finds nothing, the next coarser part it names answers
// (number -> street -> postcode or locality -> region or country), never a place it did not name.
describe('fallback by parts', () => {
  const words: Array<[string, number]> = [
    ['herrengasse', 40],
    ['vaduz', 900],
    ['schaan', 700],
  ];
  const street = place('Herrengasse', { kind: 'street', label: 'Herrengasse, 9490 Vaduz' });
  const schaan = place('Schaan', { label: 'Schaan, Liechtenstein' });

  it('reads the parts: the query without each number, and the ends after commas and of its last words', () => {
    const q = buildTextQuery('Herrengasse 977, 9490 Vaduz')!;
    expect(withoutNumber(q).map((p) => p.text)).toEqual(['herrengasse 9490 vaduz', 'herrengasse 977 vaduz']);
    expect(coarserParts(q, 'Herrengasse 977, 9490 Vaduz').map((p) => p.text)).toEqual([
      '977 9490 vaduz',
      '9490 vaduz',
      'vaduz',
    ]);
    expect(coarserParts(buildTextQuery('Vaduz')!, 'Vaduz')).toEqual([]);
  });

  it('answers the street when the house number is not on it, and says so', async () => {
    const r = await run('Herrengasse 977, Vaduz', {
      words,
      namedBy: { 'herrengasse vaduz': [street] },
      fullTextBy: { 'herrengasse vaduz': 6 },
    });
    expect(r.step).toBe('fallback-street');
    expect(r.answer.fallback).toEqual({ level: 'street', unmatched: ['977'] });
    expect(r.answer.places).toEqual([street]);
    expect(r.calls).toContain('fullText:herrengasse vaduz');
  });

  it('answers a street labelled with the municipality when it runs near the village the query names', async () => {
    const parts = streetLineAndTown(buildTextQuery('Heitastrasse 980, Malbun')!, 'Heitastrasse 980, Malbun');
    expect([parts?.street.text, parts?.town.text]).toEqual(['heitastrasse', 'malbun']);
    expect(streetLineAndTown(buildTextQuery('Heitastrasse, Malbun')!, 'Heitastrasse, Malbun')).toBeNull();
    const malbun = place('Malbun', { lon: 9.6, lat: 47.1 });
    const heita = place('Heitastrasse', {
      kind: 'street',
      label: 'Heitastrasse, 9497 Triesenberg',
      lon: 9.59,
      lat: 47.1,
    });
    const far = place('Heitastrasse', { kind: 'street', label: 'Heitastrasse, 9490 Vaduz', lon: 9.3, lat: 47.1 });
    const r = await run('Heitastrasse 980, Malbun', {
      namedBy: { malbun: [malbun], heitastrasse: [heita, far] },
      fullTextBy: { heitastrasse: 3 },
    });
    expect(r.step).toBe('fallback-street');
    expect(r.answer.places).toEqual([heita]);
    expect(r.answer.fallback).toEqual({ level: 'street', unmatched: ['980', 'malbun'] });
  });

  it('answers a street only its addresses name, or spelt otherwise by its lines, with its addresses in the town', async () => {
    const address = (label: string, streetName: string) => ({
      ...place(label.split(',')[0], { kind: 'address', label }),
      street: streetName,
    });
    const fallsgass = address('Fallsgass 18, 9493 Mauren', 'Fallsgass');
    const only = await run('Fallsgass 923, Mauren', {
      namedBy: { mauren: [place('Mauren')] },
      streetAddresses: { 'fallsgass mauren': [fallsgass] },
      fullTextBy: { 'fallsgass mauren': 2 },
    });
    expect([only.step, only.answer.places, only.answer.fallback]).toEqual([
      'fallback-street',
      [fallsgass],
      { level: 'street', unmatched: ['923'] },
    ]);
    // The line spelt Sankt, the query and one address St.: the address; typed Sankt, the line.
    const line = place('Sankt Martins-Ring', { kind: 'street', label: 'Sankt Martins-Ring, 9492 Eschen' });
    const st = address('St. Martins-Ring 2, 9492 Eschen', 'St. Martins-Ring');
    const sankt = address('Sankt Martins-Ring 2, 9492 Eschen', 'Sankt Martins-Ring');
    const script = {
      namedBy: { 'st martins ring eschen': [line], 'sankt martins ring eschen': [line] },
      streetAddresses: { 'st martins ring eschen': [st, sankt], 'sankt martins ring eschen': [sankt, st] },
      fullText: [0, 3],
    };
    expect((await run('St. Martins-Ring 977, Eschen', script)).answer.places).toEqual([st]);
    expect((await run('Sankt Martins-Ring 977, Eschen', script)).answer.places).toEqual([line]);
  });

  it('answers the town when the street is not in it, and the imagery nearest it when it has none', async () => {
    const r = await run('Herrengasse, Schaan', { words, namedBy: { schaan: [schaan] }, area: 4 });
    expect(r.step).toBe('fallback-locality');
    expect(r.answer).toMatchObject({ match: 'nearby', fallback: { level: 'locality', unmatched: ['herrengasse'] } });
  });

  it('answers a postcode as its own level', async () => {
    const zip = place('90210', { kind: 'postcode', label: 'Beverly Hills, CA 90210, United States' });
    const r = await run('742 Evergreen Terrace 90210', { namedBy: { '90210': [zip] }, fullTextBy: { '90210': 4 } });
    expect(r.step).toBe('fallback-locality');
    expect(r.answer.fallback).toEqual({ level: 'postcode', unmatched: ['742', 'evergreen', 'terrace'] });
  });

  it('shortens a ZIP+4 code whose +4 part is unknown to its ZIP', async () => {
    const zip = place('90210', { kind: 'postcode', label: 'Beverly Hills, CA 90210, United States' });
    expect(withoutPlusFour(buildTextQuery('90210-1234')!, '90210-1234')?.text).toBe('90210');
    expect(withoutPlusFour(buildTextQuery('90210 1234')!, '90210 1234')).toBeNull();
    const r = await run('Beverly Hills, CA 90210-1234', {
      namedBy: { 'beverly hills ca 90210': [zip] },
      fullTextBy: { 'beverly hills ca 90210': 1 },
    });
    expect(r.step).toBe('fallback-locality');
    expect(r.answer.fallback).toEqual({ level: 'postcode', unmatched: ['1234'] });
  });

  it('never answers with a place the words do not name exactly: a prefix, a typo, a country among its other names', async () => {
    const vaduz = place('Vaduz', { altNames: 'Liechtenstein' });
    for (const query of ['Fakegasse 3, Vadu', 'Fakegasse 3, Vadus', 'Fakegasse 3 Liechtenstein']) {
      const r = await run(query, { namedBy: { vadu: [vaduz], vadus: [vaduz], liechtenstein: [vaduz] }, area: 3 });
      expect({ query, step: r.step }).toEqual({ query, step: 'nothing-found' });
    }
  });

  it('does not take the end of another place\'s name for a place ("York" of "New York United Kingdom")', async () => {
    const york = place('York', { label: 'York, England, United Kingdom' });
    const nyc = place('New York City', { altNames: 'New York' });
    const r = await run('Fifth Avenue, New York, United Kingdom', {
      namedBy: { york: [york], 'new york': [nyc] },
      fullTextBy: { york: 3 },
    });
    expect(r.step).toBe('nothing-found');
  });

  it('answers the region named after an address line it has no place for, and never after a town it lacks', async () => {
    const texas = place('Texas', { kind: 'region', label: 'Texas, United States' });
    const line = await run('123 Nowhere Rd, Texas', { regionPlaces: { 'US-TX': texas }, area: 5 });
    expect(line.step).toBe('fallback-region');
    expect(line.answer).toMatchObject({
      places: [texas],
      fallback: { level: 'region', unmatched: ['123', 'nowhere', 'rd'] },
    });
    const country = await run('12 Fakestrasse, Liechtenstein', {
      regionPlaces: { LI: place('Liechtenstein') },
      area: 2,
    });
    expect(country.answer.fallback?.level).toBe('country');
    for (const query of ['Vaduz, Poland', 'Springfeld, Kenya']) {
      const r = await run(query, { regionPlaces: { PL: place('Poland'), KE: place('Kenya') }, area: 5 });
      expect({ query, step: r.step }).toEqual({ query, step: 'nothing-found' });
    }
  });
});

// A country or region named alone (named-region-alone): that region's imagery, never a lookalike town.
describe('a country or region named alone', () => {
  const greenland = place('Greenland', { kind: 'country', label: 'Greenland' });

  it('answers the country by its name, its other names and its alpha-2 and alpha-3 codes', async () => {
    for (const query of ['Greenland', 'Grönland', 'GRL', 'gl']) {
      const r = await run(query, { regionPlaces: { GL: greenland }, area: 2 });
      expect({ query, step: r.step, places: r.answer.places }).toEqual({
        query,
        step: 'named-region-alone',
        places: [greenland],
      });
    }
  });

  it('answers a country by its code alone and by its name in any language, and a region by its other names', async () => {
    const germany = place('Germany', { kind: 'country', label: 'Germany' });
    const japan = place('Japan', { kind: 'country', label: 'Japan' });
    const bavaria = place('Bavaria', { kind: 'region', label: 'Bavaria, Germany' });
    const regionPlaces = { DE: germany, JP: japan, 'DE-BY': bavaria };
    for (const [query, meant] of [
      ['DE', germany],
      ['DEU', germany],
      ['日本', japan],
      ['Bayern', bavaria],
    ] as const) {
      const r = await run(query, { regionPlaces, area: 1 });
      expect({ query, step: r.step, places: r.answer.places }).toEqual({
        query,
        step: 'named-region-alone',
        places: [meant],
      });
    }
  });

  it('answers nothing rather than a town of that name elsewhere when the country has no imagery', async () => {
    const town = place('Greenland', { label: 'Greenland, NH 03840, United States' });
    const r = await run('Greenland', { regionPlaces: { GL: greenland }, named: [[town]], fullText: [3] });
    expect(r.step).toBe('named-region-alone');
    expect(r.answer.page.total).toBe(0);
    expect(r.calls).not.toContain('fullText:greenland');
  });

  it('leaves a region that a town shares its name with, and a name two regions share, to the place search', async () => {
    const seattle = place('Washington', { label: 'Washington, District of Columbia, United States' });
    const washington = await run('Washington', { namedBy: { washington: [seattle] }, fullText: [4] });
    expect(washington.step).toBe('full-text');
    const georgia = await run('Georgia', { fullText: [2], words: [['georgia', 9]] });
    expect(georgia.state.ran).not.toContain('named-region-alone');
  });

  it('goes on as before when the gazetteer has no place for the country', async () => {
    const r = await run('Liechtenstein', { fullText: [5], words: [['liechtenstein', 900]] });
    expect(r.step).toBe('full-text');
  });
});
