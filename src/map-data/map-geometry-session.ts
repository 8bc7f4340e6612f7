import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { GenerateSql, NoSql, SAMPLE_SOURCE, SqlSubject } from '../database/generate-sql';
import type { MapFeature, MapFeatureSink } from './map-feature';

// Areas smaller than these (square metres in EPSG:3857, about the size on the map at mid latitudes)
// are drawn from the zoom beside them on: a lake of 1 km2 from zoom 9, a pond of 1,000 m2 from 14.
// A feature is never drawn before the zoom its class says (osm-map.ts).
const AREA_ZOOMS: ReadonlyArray<readonly [number, number]> = [
  [10_000_000, 6],
  [1_000_000, 9],
  [100_000, 11],
  [10_000, 13],
];
const SMALL_AREA_ZOOM = 14;
// geom_low: the copy drawn below zoom 12, simplified to this many metres (a pixel of a 4096-extent
// tile is 9.6 m at zoom 10, 38 m at zoom 8); only for features drawn below zoom 12.
export const LOW_ZOOM_TOLERANCE_M = 10;
export const LOW_ZOOM_BELOW = 12;
// EPSG:3857 ends here (the latitude whose y is the x of 180 degrees).
const MAX_LAT = 85.0511;
const COLUMNS = ['layer', 'class', 'name', 'min_zoom', 'geometry'] as const;

// An OpenStreetMap import's map features (map_features): staged on a connection of their own while the
// file is read, then put in place of the source's old ones in one statement (finish), so a tile never
// sees half of them; an import that stops before finish leaves the old map as it was. One statement,
// not a transaction: the built-in database runs every connection in one shared session.
@SqlSubject((db) => MapGeometrySession.open(db.client(), SAMPLE_SOURCE, '0123456789ab'))
export class MapGeometrySession implements MapFeatureSink {
  // The batch being written: one at a time, while the file is read on (the last one until finish).
  private inFlight: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: Client,
    private readonly source: string,
    private readonly table: string,
  ) {}

  static async open(
    client: Client,
    source: string,
    suffix = randomBytes(6).toString('hex'),
  ): Promise<MapGeometrySession> {
    const table = `map_features_staging_${suffix}`;
    try {
      await client.query(`CREATE TEMP TABLE ${table} (LIKE map_features)`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return new MapGeometrySession(client, source, table);
  }

  // Projected to EPSG:3857 (cut to its latitude range where they pass it), invalid areas made valid, each given the zoom its
  // size says, and the low-zoom copy simplified.
  // Queues a batch; resolves once the batch before it is written (its failure is thrown here or by finish).
  @GenerateSql({ params: () => [[SAMPLE_FEATURE]] })
  async add(features: readonly MapFeature[]): Promise<void> {
    const previous = this.inFlight;
    this.inFlight = previous.then(() => this.insert(features));
    this.inFlight.catch(() => undefined); // seen by the next add or by finish
    await previous;
  }

  @NoSql("add's statement (declared there)")
  private async insert(features: readonly MapFeature[]): Promise<void> {
    if (features.length === 0) return;
    const columns = COLUMNS.map((c) =>
      features.map((f) => (c === 'min_zoom' ? f.minZoom : f[c as Exclude<typeof c, 'min_zoom'>])),
    );
    const areaZoom = AREA_ZOOMS.map(([area, zoom]) => `WHEN area >= ${area} THEN ${zoom}`).join(' ');
    // Each step MATERIALIZED: inlined, every mention of a step's geometry would compute it again.
    await this.client.query(
      `WITH read AS MATERIALIZED (
         SELECT layer, class, name, min_zoom, ST_SetSRID(ST_GeomFromGeoJSON(geometry), 4326) AS w
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[]) AS t(layer, class, name, min_zoom, geometry)),
       projected AS MATERIALIZED (
         SELECT layer, class, name, min_zoom,
                ST_Transform(CASE WHEN abs(ST_YMin(w)) > ${MAX_LAT} OR abs(ST_YMax(w)) > ${MAX_LAT}
                                  THEN ST_Intersection(w, ST_MakeEnvelope(-180, -${MAX_LAT}, 180, ${MAX_LAT}, 4326))
                                  ELSE w END, 3857) AS raw
         FROM read),
       valid AS MATERIALIZED (
         SELECT layer, class, name, min_zoom,
                CASE WHEN ST_Dimension(raw) = 2 AND NOT ST_IsValid(raw)
                     THEN ST_CollectionExtract(ST_MakeValid(raw), 3) ELSE raw END AS g
         FROM projected),
       zoomed AS MATERIALIZED (
         SELECT layer, class, name, g,
                CASE WHEN ST_Dimension(g) = 2 AND layer <> 'buildings'
                     THEN greatest(min_zoom, (SELECT CASE ${areaZoom} ELSE ${SMALL_AREA_ZOOM} END FROM ST_Area(g) AS a(area)))
                     ELSE min_zoom END AS z
         FROM valid WHERE NOT ST_IsEmpty(g))
       INSERT INTO ${this.table} (source, layer, class, name, min_zoom, geom, geom_low)
       SELECT $6, layer, class, name, z, g,
              CASE WHEN z < ${LOW_ZOOM_BELOW} THEN ST_SimplifyPreserveTopology(g, ${LOW_ZOOM_TOLERANCE_M}) END
       FROM zoomed`,
      [...columns, this.source],
    );
  }

  // Puts the staged features in place of the source's old ones: one statement, all or nothing.
  // Returns how many features the source now has.
  @GenerateSql({ answers: [[{ n: 1 }]] })
  async finish(): Promise<number> {
    await this.inFlight;
    const { rows } = await this.client.query<{ n: number }>(
      `WITH gone AS (DELETE FROM map_features WHERE source = $1),
            added AS (INSERT INTO map_features SELECT * FROM ${this.table} RETURNING 1)
       SELECT count(*)::int AS n FROM added`,
      [this.source],
    );
    await this.client.query('ANALYZE map_features');
    return rows[0].n;
  }

  @GenerateSql()
  async close(): Promise<void> {
    await this.inFlight.catch(() => undefined);
    try {
      await this.client.query(`DROP TABLE IF EXISTS ${this.table}`);
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }
}

const SAMPLE_FEATURE: MapFeature = {
  layer: 'streets',
  class: 'residential',
  name: 'Herrengasse',
  minZoom: 12,
  geometry: '{"type":"LineString","coordinates":[[9.52,47.139],[9.521,47.14]]}',
};
