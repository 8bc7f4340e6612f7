import { Prisma } from '@prisma/client';
import {
  COVERAGE_DETAIL_ZOOM,
  COVERAGE_EVERY_IMAGE_ZOOM,
  LAYER_ROW_CAPS,
  LOW_ZOOM_BELOW,
  SEQUENCE_MAX_ZOOM,
  SEQUENCE_MIN_ZOOM,
  TILE_BUFFER,
  TILE_EXTENT,
} from './tile-limits';

// One statement per tile (docs/map-tiles.md): each layer is an ST_AsMVT of at most its cap of rows read
// through a GiST index on the tile's box (with its buffer), and the layers are concatenated; a layer
// with no rows adds nothing, so a tile with nothing is an empty body. The map's tables are in
// EPSG:3857 (ST_TileEnvelope's projection); imagery and places are in 4326, so their box is the tile's
// box transformed once (a 3857 rectangle is a 4326 rectangle) and each row read is projected.

// PostGIS built without protobuf-c (the built-in database's) has no ST_AsMVT: this is its message.
export const NO_MVT = /without protobuf-c support/i;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

type MapLayer = 'streets' | 'paths' | 'water' | 'landuse' | 'buildings';
const MAP_LAYERS: Array<[MapLayer, string]> = [
  ['landuse', 'class'],
  ['water', 'class, name'],
  ['streets', 'class, name'],
  ['paths', 'class, name'],
  ['buildings', 'name'],
];

// How a tile's layers come out: 'mvt' encoded by PostGIS (ST_AsMVT), or 'rows' for a PostGIS without
// protobuf-c (the built-in database's), each feature clipped to the tile's box, in tile coordinates
// and snapped to its grid as ST_AsMVTGeom would, as GeoJSON that tile-encoding.ts encodes.
export type TileEncoding = 'mvt' | 'rows';

// A row's geometry in the tile's coordinates (0..extent, y down) without ST_AsMVTGeom: clipped to the box
// with its buffer (points lie in it already), exterior rings counter-clockwise so that they turn clockwise
// when y flips (the orientation the format wants), scaled and snapped to whole units. Lines keep their
// direction (ST_ForcePolygonCCW reverses a line as well): a sequence's runs from its first image.
const TILE_GEOM = `ST_SnapToGrid(ST_Affine(
        CASE WHEN GeometryType(r.geom) = 'POINT' THEN r.geom
             WHEN GeometryType(r.geom) IN ('LINESTRING', 'MULTILINESTRING') THEN ST_ClipByBox2D(r.geom, tile.box::box2d)
             ELSE ST_ForcePolygonCCW(ST_ClipByBox2D(r.geom, tile.box::box2d)) END,
      ${TILE_EXTENT} / (ST_XMax(tile.envelope) - ST_XMin(tile.envelope)), 0, 0,
      -${TILE_EXTENT} / (ST_YMax(tile.envelope) - ST_YMin(tile.envelope)),
      -ST_XMin(tile.envelope) * ${TILE_EXTENT} / (ST_XMax(tile.envelope) - ST_XMin(tile.envelope)),
      ST_YMax(tile.envelope) * ${TILE_EXTENT} / (ST_YMax(tile.envelope) - ST_YMin(tile.envelope))), 1)`;

// A layer from a subquery yielding `geom` (EPSG:3857) and its attributes.
function layer(name: string, rows: string, attributes: string, encoding: TileEncoding): string {
  if (encoding === 'rows')
    return `SELECT '${name}' AS layer, ST_AsGeoJSON(l.geom) AS geometry, to_jsonb(l) - 'geom' AS tags FROM (
      SELECT ${TILE_GEOM} AS geom, ${attributes} FROM (${rows}) r) l WHERE NOT ST_IsEmpty(l.geom)`;
  return `(SELECT ST_AsMVT(l, '${name}', ${TILE_EXTENT}, 'geom') FROM (
      SELECT ST_AsMVTGeom(r.geom, tile.envelope, ${TILE_EXTENT}, ${TILE_BUFFER}, true) AS geom, ${attributes}
      FROM (${rows}) r) l WHERE l.geom IS NOT NULL)`;
}

// Streets, paths, water, landuse and buildings: features drawn at this zoom; below LOW_ZOOM_BELOW
// from the simplified copy, whose partial index holds only the features drawn there.
function mapLayer(name: MapLayer, attributes: string, low: boolean, encoding: TileEncoding): string {
  const geom = low ? 'geom_low' : 'geom';
  const lowOnly = low ? ` AND f.min_zoom < ${LOW_ZOOM_BELOW}` : '';
  return layer(
    name,
    `SELECT f.${geom} AS geom, ${attributes} FROM map_features f
     WHERE f.${geom} && tile.box AND f.layer = '${name}' AND f.min_zoom <= tile.z${lowOnly}
     LIMIT ${LAYER_ROW_CAPS[name]}`,
    attributes,
    encoding,
  );
}

// Labels: countries, regions and localities (their own partial index, without the addresses around
// them), and from zoom 12 natural features, from 15 every poi. `rank`: lower is more important (from
// the place's importance, 0..1); `min_zoom`: the zoom the label is shown from.
const PLACE_KIND = `CASE p.kind WHEN 'country' THEN 'country' WHEN 'region' THEN 'state'
      WHEN 'locality' THEN CASE WHEN p.importance >= 0.6 THEN 'city' WHEN p.importance >= 0.45 THEN 'town'
                                WHEN p.importance >= 0.3 THEN 'village' ELSE 'hamlet' END
      ELSE CASE WHEN p.category LIKE 'natural=%' OR p.category LIKE 'waterway=%' THEN 'natural' ELSE 'poi' END END`;
const PLACE_MIN_ZOOM = `CASE kind WHEN 'country' THEN 2 WHEN 'state' THEN 5 WHEN 'city' THEN 6 WHEN 'town' THEN 8
      WHEN 'village' THEN 11 WHEN 'hamlet' THEN 13 WHEN 'natural' THEN 12 ELSE 15 END`;
function placesLayer(encoding: TileEncoding): string {
  const read = (where: string) =>
    `SELECT p.location, p.name, p.importance, ${PLACE_KIND} AS kind FROM places p
     WHERE p.location && tile.box4326 AND ${where}`;
  const rows = `SELECT ST_Transform(c.location, 3857) AS geom, c.name, c.kind,
       (100 - round(c.importance * 100))::int AS rank, c.min_zoom
     FROM (SELECT k.*, ${PLACE_MIN_ZOOM} AS min_zoom FROM (
             ${read(`p.kind IN ('country', 'region', 'locality')`)}
             UNION ALL ${read(`p.category IS NOT NULL AND tile.z >= 12`)}) k) c
     WHERE c.min_zoom <= tile.z LIMIT ${LAYER_ROW_CAPS.places}`;
  return layer('places', rows, 'name, kind, rank, min_zoom', encoding);
}

// Coverage: below COVERAGE_DETAIL_ZOOM the cells of the tile's zoom with their counts; up to
// COVERAGE_EVERY_IMAGE_ZOOM the newest image of each cell (kept in the cells by lis_refresh_coverage, in
// EPSG:3857); from it, the images themselves.
const IMAGE_ATTRIBUTES = 'id, heading, interactive, date';
function coverageLayer(z: number, encoding: TileEncoding): string {
  if (z < COVERAGE_DETAIL_ZOOM)
    return layer(
      'coverage',
      `SELECT c.geom, c.count FROM coverage_cells c
       WHERE c.zoom = tile.z AND c.geom && tile.box LIMIT ${LAYER_ROW_CAPS.coverageCells}`,
      'count',
      encoding,
    );
  if (z < COVERAGE_EVERY_IMAGE_ZOOM)
    return layer(
      'coverage',
      `SELECT c.geom, c.image_id::text AS id, c.heading, c.interactive, to_char(c.captured_at, 'YYYY-MM-DD') AS date
       FROM coverage_cells c WHERE c.zoom = tile.z AND c.geom && tile.box LIMIT ${LAYER_ROW_CAPS.coverageCells}`,
      IMAGE_ATTRIBUTES,
      encoding,
    );
  return layer(
    'coverage',
    `SELECT ST_Transform(i.location, 3857) AS geom, i.id::text AS id, i.heading, i.interactive,
            to_char(i.captured_at, 'YYYY-MM-DD') AS date
     FROM imagery i WHERE i.location && tile.box4326 LIMIT ${LAYER_ROW_CAPS.coverageImages}`,
    IMAGE_ATTRIBUTES,
    encoding,
  );
}

// Sequences: at their zooms, each sequence's line (coverage_sequences, kept by the coverage refresh in
// EPSG:3857), its newest image's date for styling as the coverage points are; at other zooms no layer.
function sequencesLayer(z: number, encoding: TileEncoding): string[] {
  if (z < SEQUENCE_MIN_ZOOM || z > SEQUENCE_MAX_ZOOM) return [];
  const rows = `SELECT s.geom, s.sequence_id::text AS id, to_char(s.captured_at, 'YYYY-MM-DD') AS date,
            s.interactive, s.count
     FROM coverage_sequences s WHERE s.geom && tile.box LIMIT ${LAYER_ROW_CAPS.sequences}`;
  return [layer('sequences', rows, 'id, date, interactive, count', encoding)];
}

/**
 * The statement that draws one tile. 'mvt': one row, `mvt` (an empty bytea when the tile has nothing);
 * 'rows': a row per feature (layer, geometry as GeoJSON in tile coordinates, tags), for tile-encoding.ts.
 */
export function tileSql({ z, x, y }: TileAddress, encoding: TileEncoding = 'mvt'): Prisma.Sql {
  const low = z < LOW_ZOOM_BELOW;
  const layers = [
    ...MAP_LAYERS.map(([name, attributes]) => mapLayer(name, attributes, low, encoding)),
    placesLayer(encoding),
    ...sequencesLayer(z, encoding),
    coverageLayer(z, encoding),
  ];
  // The tile's numbers are the statement's parameters, in a subquery PostgreSQL pulls up: each plan
  // (a custom plan per request) sees them as constants, so a layer's partial index can be chosen.
  const margin = TILE_BUFFER / TILE_EXTENT;
  const select =
    encoding === 'mvt'
      ? `SELECT ${layers.map((l) => `coalesce(${l}, ''::bytea)`).join('\n      || ')} AS mvt`
      : `SELECT f.layer, f.geometry, f.tags`;
  const features = encoding === 'mvt' ? '' : `, LATERAL (${layers.join('\n      UNION ALL ')}) f`;
  return Prisma.sql`${Prisma.raw(select)}
    FROM (SELECT ${z}::int AS z, ST_TileEnvelope(${z}, ${x}, ${y}) AS envelope,
                 ST_TileEnvelope(${z}, ${x}, ${y}, margin => ${Prisma.raw(String(margin))}) AS box,
                 ST_Transform(ST_TileEnvelope(${z}, ${x}, ${y}, margin => ${Prisma.raw(String(margin))}), 4326) AS box4326) tile${Prisma.raw(features)}`;
}

/** The map's data version: one row, raised by imports (lis_map_data_changed). */
export const tileVersionSql = Prisma.sql`SELECT version::text AS version FROM map_data_version WHERE id = 1`;
