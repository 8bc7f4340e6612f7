import { bulkUpsertSql } from '../database/bulk-import/bulk-upsert.sql';
import { StagedColumn, stagingSql } from '../database/bulk-import/staged-columns';
import { PlaceRecord } from './place-record';

// Every statement of a place import (see PlaceImportSession).

// The staged columns, in COPY order, with their types; `source` is one parameter for the whole batch.
export const PLACE_STAGED: ReadonlyArray<StagedColumn<PlaceRecord>> = [
  ['id', 'uuid', (p) => p.id],
  ['kind', 'text', (p) => p.kind],
  ['name', 'text', (p) => p.name],
  ['housenumber', 'text', (p) => p.housenumber],
  ['street', 'text', (p) => p.street],
  ['postcode', 'text', (p) => p.postcode],
  ['locality', 'text', (p) => p.locality],
  ['municipality', 'text', (p) => p.municipality],
  ['district', 'text', (p) => p.district],
  ['hierarchy', 'text', (p) => (p.hierarchy ? JSON.stringify(p.hierarchy) : null)],
  ['region', 'text', (p) => p.region],
  ['region_code', 'text', (p) => p.regionCode],
  ['country_code', 'text', (p) => p.countryCode],
  ['label', 'text', (p) => p.label],
  ['alt_names', 'text', (p) => p.altNames],
  ['lon', 'float8', (p) => p.lon],
  ['lat', 'float8', (p) => p.lat],
  ['line', 'text', (p) => p.line],
  ['importance', 'float8', (p) => p.importance],
  ['population', 'int8', (p) => p.population],
  ['category', 'text', (p) => p.category ?? null],
  ['names', 'text', (p) => (p.names ? JSON.stringify(p.names) : null)],
  ['source_id', 'text', (p) => p.sourceId],
];
// Staged as text, stored as jsonb.
const JSON_COLUMNS: ReadonlySet<string> = new Set(['hierarchy', 'names']);
const DATA_COLUMNS = [
  'kind',
  'name',
  'housenumber',
  'street',
  'postcode',
  'locality',
  'municipality',
  'district',
  'hierarchy',
  'region',
  'region_code',
  'country_code',
  'label',
  'alt_names',
  'location',
  'line',
  'importance',
  'population',
  'category',
  'names',
  'source',
  'source_id',
];

// Every statement of a place import, for one staging table (its name is made by the session, never
// taken from input).
export function placeImportSql(staging: string) {
  return {
    createStaging: `CREATE TEMP TABLE ${staging} (${PLACE_STAGED.map(([c, type]) => `${c} ${type}`).join(', ')}) ON COMMIT DELETE ROWS`,
    ...stagingSql(staging, PLACE_STAGED),
    // One set-based upsert per batch (or, in a dry run, the classification); $1: the import's source.
    ...bulkUpsertSql({
      table: 'places',
      dataColumns: DATA_COLUMNS,
      incoming: `
      SELECT ${PLACE_STAGED.filter(([c]) => c !== 'lon' && c !== 'lat' && c !== 'line')
        .map(([c]) => (JSON_COLUMNS.has(c) ? `s.${c}::jsonb AS ${c}` : `s.${c}`))
        .join(', ')},
             ST_SetSRID(ST_MakePoint(s.lon, s.lat), 4326) AS location,
             ST_SetSRID(ST_GeomFromGeoJSON(s.line), 4326) AS line, $1::text AS source
      FROM ${staging} s`,
    }),
    drop: `DROP TABLE IF EXISTS ${staging}`,
    // A complete load of a source (the built-in gazetteer) drops the places its data no longer has.
    deleteOthers: 'DELETE FROM places WHERE source = $1 AND NOT (id = ANY($2::uuid[]))',
  };
}
