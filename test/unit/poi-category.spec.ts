import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { placesFromOsm } from '../../src/places/formats/osm-tags';
import { validatePlace } from '../../src/places/place-validation';
import { poiCategoryOf } from '../../src/places/poi-category';
import { buildCategoryTerms, renderCategoryTerms } from '../gazetteer/category-terms';

describe('poi categories', () => {
  it('takes the first poi key with a plain value', () => {
    expect(poiCategoryOf({ amenity: 'restaurant' })).toBe('amenity=restaurant');
    expect(poiCategoryOf({ amenity: 'yes', shop: 'Bakery; cafe' })).toBe('shop=bakery');
    expect(poiCategoryOf({ tourism: 'yes' })).toBeUndefined();
    expect(poiCategoryOf({ shop: 'Käse & Wein' })).toBeUndefined();
    expect(poiCategoryOf({ highway: 'bus_stop' })).toBeUndefined();
  });

  it('gives a named OSM poi its category, and the address beside it none', () => {
    const tags = { craft: 'carpenter', name: 'Schreinerei', 'addr:housenumber': '1', 'addr:street': 'Au' };
    expect(placesFromOsm('n1', tags, 9.5, 47.1, false).map((p) => [p.id, p.place.kind, p.place.category])).toEqual([
      ['n1', 'address', undefined],
      ['n1:poi', 'poi', 'craft=carpenter'],
    ]);
    expect(placesFromOsm('n2', { historic: 'castle' }, 9.5, 47.1, false)).toEqual([]); // no name
  });

  it('makes named ditches, drains and woods pois, and a riverbank (the area of a river) none', () => {
    const kinds = (tags: Record<string, string>) => placesFromOsm('w1', tags, 9.5, 47.1, true).map((p) => p.place.kind);
    expect(kinds({ waterway: 'ditch', name: 'Rüttelegraben' })).toEqual(['poi']);
    expect(kinds({ waterway: 'drain', name: 'Egelgraba' })).toEqual(['poi']);
    expect(kinds({ natural: 'wood', name: 'Schlosswald' })).toEqual(['poi']);
    expect(kinds({ waterway: 'riverbank', name: 'Rhein' })).toEqual([]);
    expect(kinds({ waterway: 'ditch' })).toEqual([]);
  });

  it('names a deprecated tag by the words of the preset that replaced it', () => {
    const { categories } = buildCategoryTerms();
    const byTag = new Map(categories.map((c) => [c.tag, c]));
    // amenity=public_building is building=public in the iD presets now; mappers still write the old tag.
    expect(byTag.get('amenity=public_building')?.en.name).toBe('Public Building');
    // A tag with a preset of its own keeps its own words.
    expect(byTag.get('amenity=restaurant')?.en.name).toBe('Restaurant');
  });

  it('validates a category as a tag', () => {
    const poi = { kind: 'poi', name: 'Löwen', lon: 9.5, lat: 47.1 };
    const ok = validatePlace({ ...poi, category: 'amenity=restaurant' }, { source: 't' });
    expect(ok.ok && ok.place.category).toBe('amenity=restaurant');
    const none = validatePlace(poi, { source: 't' });
    expect(none.ok && none.place.category).toBeNull();
    expect(validatePlace({ ...poi, category: 'Restaurant' }, { source: 't' })).toMatchObject({
      ok: false,
      rejection: { field: 'category' },
    });
    expect(validatePlace({ ...poi, category: 7 }, { source: 't' })).toMatchObject({ ok: false });
  });

  it('the committed category words are what npm run gazetteer:categories writes', () => {
    const file = join(__dirname, '..', '..', 'src', 'search', 'query', 'poi-category-terms.json');
    expect(readFileSync(file, 'utf8')).toBe(renderCategoryTerms(buildCategoryTerms()));
  });
});
