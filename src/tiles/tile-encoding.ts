import { fromGeojsonVt } from 'vt-pbf';
import { TILE_EXTENT } from './tile-limits';

// A tile encoded here, not by PostGIS: the built-in database's PostGIS is built without protobuf-c and has
// no ST_AsMVT, so its statement (tileSql with 'rows') returns each feature already clipped, in tile
// coordinates and snapped to the grid, as GeoJSON, and vt-pbf (Mapbox's encoder of the Mapbox Vector
// Tile format, the one geojson-vt servers use) writes the layers. Same layers, attributes and extent as
// ST_AsMVT's tiles; features come in the statement's order.

export interface FeatureRow {
  layer: string;
  /** GeoJSON geometry in tile coordinates (0..extent, y down). */
  geometry: string;
  tags: Record<string, unknown>;
}

type Position = [number, number];
type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'MultiPoint' | 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString' | 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'GeometryCollection'; geometries: Geometry[] };

interface TileFeature {
  /** 1 point, 2 line, 3 polygon. */
  type: 1 | 2 | 3;
  /** Points: the points; lines: each line; polygons: every ring, exterior first. */
  geometry: Position[] | Position[][];
  tags: Record<string, string | number | boolean>;
}

// A geometry as the format's features: one per kind of part (a collection from clipping may mix them).
function features(geometry: Geometry, tags: TileFeature['tags']): TileFeature[] {
  switch (geometry.type) {
    case 'Point':
      return [{ type: 1, geometry: [geometry.coordinates], tags }];
    case 'MultiPoint':
      return [{ type: 1, geometry: geometry.coordinates, tags }];
    case 'LineString':
      return [{ type: 2, geometry: [geometry.coordinates], tags }];
    case 'MultiLineString':
      return [{ type: 2, geometry: geometry.coordinates, tags }];
    case 'Polygon':
      return [{ type: 3, geometry: geometry.coordinates, tags }];
    case 'MultiPolygon':
      return [{ type: 3, geometry: geometry.coordinates.flat(), tags }];
    case 'GeometryCollection':
      return geometry.geometries.flatMap((part) => features(part, tags));
  }
}

// Attributes as ST_AsMVT writes them: a null is left out.
function tagsOf(row: FeatureRow): TileFeature['tags'] {
  const tags: TileFeature['tags'] = {};
  for (const [key, value] of Object.entries(row.tags))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') tags[key] = value;
  return tags;
}

/** The tile's protobuf (an empty buffer when no row came). */
export function encodeTile(rows: FeatureRow[]): Buffer {
  if (rows.length === 0) return Buffer.alloc(0);
  const layers: Record<string, { features: TileFeature[] }> = {};
  for (const row of rows) {
    layers[row.layer] ??= { features: [] };
    layers[row.layer].features.push(...features(JSON.parse(row.geometry) as Geometry, tagsOf(row)));
  }
  return Buffer.from(fromGeojsonVt(layers, { version: 2, extent: TILE_EXTENT }));
}
