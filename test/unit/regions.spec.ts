import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  allCountries,
  allRegions,
  countryLabel,
  regionByAdmin1,
  regionByCode,
  sovereignOf,
} from '../../src/places/regions';
import { buildTerritorySovereigns, renderTerritorySovereigns } from '../gazetteer/territory-sovereigns';
import {
  buildRegionData,
  buildRegionNamesByLanguage,
  renderRegionData,
  renderRegionNamesByLanguage,
} from '../gazetteer/region-data';

describe('regionByCode', () => {
  it('finds countries by ISO 3166-1 alpha-2, any case', () => {
    expect(regionByCode('LI')).toEqual({ code: 'LI', name: 'Liechtenstein', countryCode: 'LI', kind: 'country' });
    expect(regionByCode('us')).toEqual({ code: 'US', name: 'United States', countryCode: 'US', kind: 'country' });
    expect(regionByCode(' de ')?.name).toBe('Germany');
  });

  it('finds first-level regions by ISO 3166-2, any case', () => {
    expect(regionByCode('US-CA')).toEqual({ code: 'US-CA', name: 'California', countryCode: 'US', kind: 'region' });
    expect(regionByCode('de-by')).toEqual({ code: 'DE-BY', name: 'Bavaria', countryCode: 'DE', kind: 'region' });
    expect(regionByCode('GB-SCT')?.name).toBe('Scotland');
    expect(regionByCode('IN-PB')?.name).toBe('Punjab');
  });

  it('knows no made-up codes', () => {
    for (const code of ['', 'XX', 'USA', 'US-', 'US-XX', 'ZZ-CA', '-CA', 'California'])
      expect(regionByCode(code)).toBeUndefined();
  });

  it('covers the world: every country once, thousands of regions, every region in a known country', () => {
    const countries = allCountries();
    expect(countries.length).toBeGreaterThanOrEqual(240);
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length);
    const regions = allRegions();
    expect(regions.length).toBeGreaterThan(3500);
    expect(new Set(regions.map((r) => r.code)).size).toBe(regions.length);
    const malformed = regions.filter(
      (r) => regionByCode(r.countryCode)?.kind !== 'country' || r.code !== `${r.countryCode}-${r.shortCode}` || !r.name,
    );
    expect(malformed).toEqual([]);
  });
});

describe('regionByAdmin1', () => {
  it('maps GeoNames admin1 codes to ISO 3166-2 regions', () => {
    expect(regionByAdmin1('US', 'IL')?.code).toBe('US-IL');
    expect(regionByAdmin1('DE', '02')?.code).toBe('DE-BY');
    expect(regionByAdmin1('FR', '11')?.code).toBe('FR-IDF');
    expect(regionByAdmin1('GB', 'ENG')?.code).toBe('GB-ENG');
    expect(regionByAdmin1('CA', '08')?.code).toBe('CA-ON');
    expect(regionByAdmin1('US', 'ZZ')).toBeUndefined();
  });

  it('regions carry their names in other languages', () => {
    expect(allRegions().find((r) => r.code === 'DE-BY')?.otherNames).toContain('Bayern');
  });
});

describe('sovereignOf and countryLabel', () => {
  it("a territory's or dependency's sovereign, and none for a sovereign country", () => {
    expect(['GL', 'pr', 'HK', 'AW', 'IM', 'NC'].map(sovereignOf)).toEqual(['DK', 'US', 'CN', 'NL', 'GB', 'FR']);
    for (const code of ['DK', 'US', 'LI', 'TW', 'XK', 'ZZ']) expect(sovereignOf(code)).toBeUndefined();
    // Every sovereign is a country of its own.
    const codes = new Set(allCountries().map((c) => c.code));
    const territories = allCountries().filter((c) => sovereignOf(c.code));
    expect(territories.length).toBeGreaterThanOrEqual(45);
    for (const t of territories)
      expect(codes.has(sovereignOf(t.code)!) && !sovereignOf(sovereignOf(t.code)!)).toBe(true);
  });

  it("labels a territory with its sovereign's name", () => {
    expect(countryLabel('Greenland', 'GL')).toBe('Greenland, Denmark');
    expect(countryLabel('Denmark', 'DK')).toBe('Denmark');
    expect(countryLabel('Somewhere', null)).toBe('Somewhere');
  });
});

describe('region-data.json', () => {
  it('is what `npm run gazetteer:regions` writes from the installed iso3166-2-db', () => {
    const committed = readFileSync(
      resolve(__dirname, '..', '..', 'src', 'places', 'gazetteer', 'region-data.json'),
      'utf8',
    );
    expect(committed).toBe(renderRegionData(buildRegionData()));
  });

  it('territory-sovereigns.json too, from the installed @rapideditor/country-coder', () => {
    const committed = readFileSync(
      resolve(__dirname, '..', '..', 'src', 'places', 'gazetteer', 'territory-sovereigns.json'),
      'utf8',
    );
    expect(committed).toBe(renderTerritorySovereigns(buildTerritorySovereigns()));
  });

  it('region-names-by-language.json too', () => {
    const committed = readFileSync(
      resolve(__dirname, '..', '..', 'src', 'places', 'gazetteer', 'region-names-by-language.json'),
      'utf8',
    );
    expect(committed).toBe(renderRegionNamesByLanguage(buildRegionNamesByLanguage()));
  });
});
