import { mapFeaturesFromOsm } from '../../src/places/formats/osm-map';

// Which OpenStreetMap objects the map draws, in which layer and class (the tile contract's names).
const LINE = {
  type: 'LineString',
  coordinates: [
    [9.52, 47.14],
    [9.53, 47.14],
  ],
};
const AREA = {
  type: 'Polygon',
  coordinates: [
    [
      [9.52, 47.14],
      [9.53, 47.14],
      [9.53, 47.15],
      [9.52, 47.14],
    ],
  ],
};
const drawn = (tags: Record<string, string>, geometry: object = LINE) =>
  mapFeaturesFromOsm(tags, geometry).map((f) => [f.layer, f.class, f.name, f.minZoom]);

describe('mapFeaturesFromOsm', () => {
  it('draws streets by class, a link as its road, other street values as other', () => {
    expect(drawn({ highway: 'primary_link', name: 'Landstrasse' })).toEqual([['streets', 'primary', 'Landstrasse', 8]]);
    expect(drawn({ highway: 'living_street' })).toEqual([['streets', 'residential', null, 12]]);
    expect(drawn({ highway: 'busway' })).toEqual([['streets', 'other', null, 13]]);
  });

  it('draws paths apart from streets, and nothing for highways that are no way one walks or drives', () => {
    expect(drawn({ highway: 'footway' })).toEqual([['paths', 'footway', null, 14]]);
    expect(drawn({ highway: 'bridleway' })).toEqual([['paths', 'path', null, 14]]);
    expect(drawn({ highway: 'proposed' })).toEqual([]);
    expect(drawn({ highway: 'primary' }, AREA)).toEqual([]); // a highway area is no line
  });

  it('draws water lines and areas by class', () => {
    expect(drawn({ waterway: 'river', name: 'Rhein' })).toEqual([['water', 'river', 'Rhein', 8]]);
    expect(drawn({ waterway: 'drain' })).toEqual([['water', 'stream', null, 14]]);
    expect(drawn({ natural: 'water', water: 'lake' }, AREA)).toEqual([['water', 'lake', null, 6]]);
    expect(drawn({ waterway: 'riverbank' }, AREA)).toEqual([['water', 'river', null, 6]]);
    expect(drawn({ natural: 'water' }, AREA)).toEqual([['water', 'water', null, 6]]);
  });

  it('draws landuse by class and buildings, but not building=no', () => {
    expect(drawn({ leisure: 'park' }, AREA)).toEqual([['landuse', 'park', null, 6]]);
    expect(drawn({ natural: 'wood' }, AREA)).toEqual([['landuse', 'forest', null, 6]]);
    expect(drawn({ amenity: 'grave_yard' }, AREA)).toEqual([['landuse', 'cemetery', null, 6]]);
    expect(drawn({ landuse: 'quarry' }, AREA)).toEqual([['landuse', 'other', null, 6]]);
    expect(drawn({ building: 'yes', name: 'Rathaus' }, AREA)).toEqual([['buildings', 'building', 'Rathaus', 14]]);
    expect(drawn({ building: 'no' }, AREA)).toEqual([]);
    expect(drawn({ amenity: 'cafe' }, { type: 'Point', coordinates: [9.52, 47.14] })).toEqual([]);
  });
});
