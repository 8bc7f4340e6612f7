import { countryOptions, countryRegions } from '../../src/web-page/region-list';
import { allRegions, regionByCode } from '../../src/places/regions';

// The lists behind the web page's region control (GET /regions.json, /regions/{country}.json).
describe('web page region lists', () => {
  it('lists every country once, by name, with its number of first-level regions', () => {
    const countries = countryOptions();
    expect(countries.length).toBeGreaterThan(240);
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length);
    const names = countries.map((c) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en', { sensitivity: 'base' }).compare));
    expect(countries.find((c) => c.code === 'LI')).toEqual({ code: 'LI', name: 'Liechtenstein', regions: 11 });
    expect(countries.find((c) => c.code === 'US')).toMatchObject({ name: 'United States' });
    // Every region of the API's code list is reachable through its country.
    expect(countries.reduce((n, c) => n + c.regions, 0)).toBe(allRegions().length);
  });

  it("gives a country's regions by name, each a code the API accepts", () => {
    const us = countryRegions('us')!;
    expect(us.code).toBe('US');
    expect(us.regions).toContainEqual({ code: 'US-CA', name: 'California' });
    const names = us.regions.map((r) => r.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en', { sensitivity: 'base' }).compare));
    for (const r of us.regions)
      expect(regionByCode(r.code)).toMatchObject({ code: r.code, name: r.name, kind: 'region' });
  });

  it('knows no country outside ISO 3166-1 alpha-2', () => {
    for (const code of ['XX', 'US-CA', 'USA', '', 'u', '../x']) expect(countryRegions(code)).toBeUndefined();
  });
});
