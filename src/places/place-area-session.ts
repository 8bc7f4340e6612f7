import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { GenerateSql, SqlSubject } from '../database/generate-sql';
import { HIERARCHY_PART_OF, HIERARCHY_REACH_M, PlaceHierarchy } from './place-hierarchy';

// What an OpenStreetMap file says about where its places lie, kept for the length of one import in a
// temporary table of its own connection (a dry run writes nothing lasting either):
// - admin: a boundary=administrative area (`level`: its admin_level; `code`: ISO3166-1 at level 2,
//   ISO3166-2 at level 4);
// - postal: a boundary=postal_code area (`postcode`);
// - place_area / place_node: a named place=* area or node (`placeType`: hamlet, village, ...);
// - street: a named highway=* line;
// - postcode: a point with addr:postcode.
export const AREA_KINDS = ['admin', 'postal', 'place_area', 'place_node', 'street', 'postcode'] as const;
export type AreaKind = (typeof AREA_KINDS)[number];

export interface PlaceArea {
  kind: AreaKind;
  level: number | null;
  name: string | null;
  code: string | null;
  postcode: string | null;
  placeType: string | null;
  /** A GeoJSON geometry, as osmium wrote it. */
  geometry: string;
}

/** Where one point lies: each part where the file knows it. */
export interface PointSetting {
  postcode: string | null;
  municipality: string | null;
  region: string | null;
  regionCode: string | null;
  countryCode: string | null;
  district: string | null;
  /** Per part, the smallest place=* area of its kinds covering the point, else the nearest node of its
   * kinds within the kind's reach (HIERARCHY_REACH_M) in the same municipality; null when none. */
  hierarchy: PlaceHierarchy | null;
  /** The nearest named street within STREET_REACH_M. */
  street: string | null;
  /** The postcode of the nearest point with one within POSTCODE_REACH_M. */
  nearPostcode: string | null;
  /** The postcode nearly every address of its municipality has (MUNICIPALITY_POSTCODE_SHARE). */
  municipalityPostcode: string | null;
}

// How far the fallbacks reach, in metres (docs/places.md, "Where a place lies").
export const STREET_REACH_M = 100; // a house number without addr:street joins the nearest named street
export const POSTCODE_REACH_M = 200; // a place without a postcode takes the nearest address's
// A municipality has a postcode of its own when at least this share of the postcodes in it agree.
export const MUNICIPALITY_POSTCODE_SHARE = 0.9;
// A place=* node stands for the area around it: how far, by its type (a hamlet is smaller than a village).
export const PLACE_NODE_REACH_M: Readonly<Record<string, number>> = {
  suburb: 1500,
  village: 1500,
  quarter: 800,
  hamlet: 700,
  neighbourhood: 500,
  isolated_dwelling: 200,
};

// Each place=* kind of the hierarchy: the part it fills and its node's reach in metres.
const HIERARCHY_KINDS = Object.fromEntries(
  Object.entries(HIERARCHY_PART_OF).map(([type, part]) => [type, { part, reach: HIERARCHY_REACH_M[type] }]),
);
// The longest reach in degrees of latitude, for the index's box (the distance is then checked in metres).
const MAX_HIERARCHY_REACH_DEG = Math.max(...Object.values(HIERARCHY_REACH_M)) / 111_000;

// At most this many vertices per stored piece of an area.
const SUBDIVIDE_VERTICES = 256;
const ADD_COLUMNS = ['kind', 'level', 'name', 'code', 'postcode', 'place_type', 'geometry'] as const;

// The connection that holds an import's areas; open() makes its table, load with add(), then index()
// once, then lookup() as often as needed; close() drops the table and ends the connection.
@SqlSubject((db) => PlaceAreaSession.open(db.client(), '0123456789ab'))
export class PlaceAreaSession {
  private constructor(
    private readonly client: Client,
    private readonly table: string,
  ) {}

  static async open(client: Client, suffix = randomBytes(6).toString('hex')): Promise<PlaceAreaSession> {
    const table = `place_areas_staging_${suffix}`;
    try {
      // Lookups are many and short: JIT compiling each would cost more than it saves.
      await client.query('SET jit = off');
      await client.query(
        `CREATE TEMP TABLE ${table} (kind text NOT NULL, level int, name text, code text, postcode text,
           place_type text, geom geometry(Geometry, 4326) NOT NULL, area float8)`,
      );
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return new PlaceAreaSession(client, table);
  }

  // Areas are made valid (a self-touching ring would make ST_Covers fail), measured whole (so the
  // smallest area holding a point can be chosen) and cut into pieces of few vertices (a country's
  // outline has thousands: each point is then tested against one small piece, whose box the index
  // finds); everything else is kept as a point or a line.
  @GenerateSql({ params: () => [[SAMPLE_AREA]] })
  async add(areas: readonly PlaceArea[]): Promise<void> {
    if (areas.length === 0) return;
    const columns = ADD_COLUMNS.map((c) =>
      areas.map((a) => (c === 'place_type' ? a.placeType : a[c as Exclude<typeof c, 'place_type'>])),
    );
    await this.client.query(
      `INSERT INTO ${this.table} (kind, level, name, code, postcode, place_type, geom, area)
       SELECT kind, level, name, code, postcode, place_type, piece, CASE WHEN ST_Dimension(g) = 2 THEN ST_Area(g) END
       FROM (SELECT kind, level, name, code, postcode, place_type,
                    CASE WHEN kind IN ('admin', 'postal', 'place_area')
                         THEN ST_CollectionExtract(ST_MakeValid(ST_SetSRID(ST_GeomFromGeoJSON(geometry), 4326)), 3)
                         WHEN kind = 'postcode' THEN ST_PointOnSurface(ST_SetSRID(ST_GeomFromGeoJSON(geometry), 4326))
                         ELSE ST_SetSRID(ST_GeomFromGeoJSON(geometry), 4326) END AS g
             FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
                  AS t(kind, level, name, code, postcode, place_type, geometry)) s
       CROSS JOIN LATERAL (SELECT ST_Subdivide(g, ${SUBDIVIDE_VERTICES}) AS piece WHERE ST_Dimension(g) = 2
                           UNION ALL SELECT g WHERE ST_Dimension(g) < 2) pieces
       WHERE NOT ST_IsEmpty(g)`,
      columns,
    );
  }

  // One GiST index per kind of lookup (point in area; nearest node, street or postcode), made once
  // the table is full, and statistics for the planner.
  @GenerateSql()
  async index(): Promise<void> {
    const t = this.table;
    await this.client.query(`CREATE INDEX ON ${t} USING GIST (geom) WHERE kind IN ('admin', 'postal', 'place_area')`);
    await this.client.query(`CREATE INDEX ON ${t} USING GIST (geom) WHERE kind = 'place_node'`);
    await this.client.query(`CREATE INDEX ON ${t} USING GIST (geom) WHERE kind = 'street'`);
    await this.client.query(`CREATE INDEX ON ${t} USING GIST (geom) WHERE kind = 'postcode'`);
    await this.client.query(`ANALYZE ${t}`);
    // The postcode of each municipality whose postcode points nearly all agree (pieces of one area
    // share its name and measured area).
    await this.client.query(
      `WITH counts AS (
         SELECT a.name, a.area, c.postcode, count(*) AS n
         FROM ${t} a JOIN ${t} c ON c.kind = 'postcode' AND ST_Covers(a.geom, c.geom)
         WHERE a.kind IN ('admin', 'postal', 'place_area') AND a.kind = 'admin' AND a.level = 8
         GROUP BY a.name, a.area, c.postcode),
       ranked AS (
         SELECT name, area, postcode, n, sum(n) OVER (PARTITION BY name, area) AS total,
                row_number() OVER (PARTITION BY name, area ORDER BY n DESC, postcode) AS r
         FROM counts)
       UPDATE ${t} a SET postcode = ranked.postcode FROM ranked
       WHERE ranked.r = 1 AND ranked.n >= $1 * ranked.total
         AND a.kind = 'admin' AND a.level = 8 AND a.name = ranked.name AND a.area = ranked.area`,
      [MUNICIPALITY_POSTCODE_SHARE],
    );
  }

  // Where each point lies, in the order given (see PointSetting); one statement for all of them.
  @GenerateSql({ params: () => [[[9.5209, 47.1391]]] })
  async lookup(points: ReadonlyArray<readonly [number, number]>): Promise<PointSetting[]> {
    if (points.length === 0) return [];
    const { rows } = await this.client.query<PointSetting & { i: number }>(
      placeLookupSql(this.table),
      placeLookupParams(points),
    );
    const out: PointSetting[] = new Array(points.length);
    for (const { i, ...setting } of rows) out[i - 1] = setting;
    return out;
  }

  @GenerateSql()
  async close(): Promise<void> {
    try {
      await this.client.query(`DROP TABLE IF EXISTS ${this.table}`);
    } finally {
      await this.client.end().catch(() => undefined);
    }
  }
}

// The parameters of placeLookupSql for these points.
export function placeLookupParams(points: ReadonlyArray<readonly [number, number]>): unknown[] {
  return [
    points.map((p) => p[0]),
    points.map((p) => p[1]),
    JSON.stringify(PLACE_NODE_REACH_M),
    JSON.stringify(HIERARCHY_KINDS),
    MAX_HIERARCHY_REACH_DEG,
  ];
}

// Each part from the smallest area that covers the point (ST_Covers on the areas' index); a district
// from a place=* area, else from the nearest place=* node within its type's reach; the nearest
// named street and the nearest postcode within their reach (KNN on the index, then the distance
// checked on the spheroid). $3: the place node reaches by type.
export function placeLookupSql(t: string): string {
  const smallest = (where: string, column: string) =>
    `(SELECT ${column} FROM ${t} a WHERE a.kind IN ('admin', 'postal', 'place_area') AND ${where}
        AND ST_Covers(a.geom, p.pt) ORDER BY a.area LIMIT 1)`;
  const nearest = (kind: string, column: string, reach: string, where = 'true') =>
    `(SELECT ${column} FROM (SELECT * FROM ${t} a WHERE a.kind = '${kind}' AND ${where} ORDER BY a.geom <-> p.pt LIMIT 5) a
        WHERE ST_DWithin(a.geom::geography, p.pt::geography, ${reach})
        ORDER BY ST_Distance(a.geom::geography, p.pt::geography) LIMIT 1)`;
  return `
    SELECT p.i::int AS i,
      ${smallest(`a.kind = 'postal'`, 'a.postcode')} AS postcode,
      ${smallest(`a.kind = 'admin' AND a.level = 8`, 'a.name')} AS municipality,
      ${smallest(`a.kind = 'admin' AND a.level = 4`, 'a.name')} AS region,
      ${smallest(`a.kind = 'admin' AND a.level = 4`, 'a.code')} AS "regionCode",
      ${smallest(`a.kind = 'admin' AND a.level = 2 AND a.code IS NOT NULL`, 'a.code')} AS "countryCode",
      coalesce(${smallest(`a.kind = 'place_area' AND $3::jsonb ? a.place_type`, 'a.name')},
               ${nearest('place_node', 'a.name', `($3::jsonb ->> a.place_type)::float8`, '$3::jsonb ? a.place_type')}) AS district,
      ${hierarchySql(t)} AS hierarchy,
      ${nearest('street', 'a.name', String(STREET_REACH_M))} AS street,
      ${nearest('postcode', 'a.postcode', String(POSTCODE_REACH_M))} AS "nearPostcode",
      ${smallest(`a.kind = 'admin' AND a.level = 8`, 'a.postcode')} AS "municipalityPostcode"
    FROM (SELECT t.i, ST_SetSRID(ST_MakePoint(t.lon, t.lat), 4326) AS pt
          FROM unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS t(lon, lat, i)) p`;
}

// The hierarchy of p.pt (see PointSetting): $4 the kinds ({type: {part, reach}}), $5 the longest
// reach in degrees. A node counts only in the municipality of the point (where both lie in one).
function hierarchySql(t: string): string {
  const municipality = (pt: string) =>
    `(SELECT m.name FROM ${t} m WHERE m.kind = 'admin' AND m.level = 8 AND ST_Covers(m.geom, ${pt}) ORDER BY m.area LIMIT 1)`;
  return `(SELECT jsonb_object_agg(h.part, h.name) FROM (
        SELECT DISTINCT ON (c.part) c.part, c.name FROM (
          SELECT $4::jsonb -> a.place_type ->> 'part' AS part, a.name, 0 AS source, a.area AS d
          FROM ${t} a WHERE a.kind = 'place_area' AND $4::jsonb ? a.place_type AND ST_Covers(a.geom, p.pt)
          UNION ALL
          SELECT n.part, n.name, 1, n.d FROM (
            SELECT $4::jsonb -> a.place_type ->> 'part' AS part, a.name, a.geom,
                   ($4::jsonb -> a.place_type ->> 'reach')::float8 AS reach,
                   ST_Distance(a.geom::geography, p.pt::geography) AS d
            FROM ${t} a WHERE a.kind = 'place_node' AND $4::jsonb ? a.place_type
              AND ST_DWithin(a.geom, p.pt, $5::float8 / greatest(cos(radians(ST_Y(p.pt))), 0.1))) n
          WHERE n.d <= n.reach AND ${municipality('n.geom')} IS NOT DISTINCT FROM ${municipality('p.pt')}
        ) c ORDER BY c.part, c.source, c.d) h)`;
}

const SAMPLE_AREA: PlaceArea = {
  kind: 'admin',
  level: 8,
  name: 'Vaduz',
  code: null,
  postcode: null,
  placeType: null,
  geometry: '{"type":"Polygon","coordinates":[[[9.5,47.1],[9.6,47.1],[9.6,47.2],[9.5,47.1]]]}',
};
