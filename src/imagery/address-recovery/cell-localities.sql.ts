// The nearest locality of many rows at once. The rule is nearest('locality')'s in imagery-place-link.repository.ts:
// of the KNN_CANDIDATES localities nearest by planar distance in degrees, the nearest on the sphere.
// Looked up row by row, a KNN walk of the locality index was most of the linking time of an import
// (docs/benchmarks.md#fig-cell-localities); records come in streets and sequences, so many share a
// small grid cell, and the cell's candidates are looked up once: the KNN_CANDIDATES nearest to the
// cell's centre, and every locality up to the farthest of them plus the cell's diagonal. For any point
// of the cell, its KNN_CANDIDATES nearest are among those (each of the centre's is at most the
// farthest plus half the diagonal away from the point; any other locality, at least that far), so
// each row picks from the candidates exactly what its own lookup would (ties in planar distance are
// broken by id). The argument holds for a cell of any size: a row alone in its small cell
// (LOCALITY_CELL_DEGREES) uses its large cell (LOCALITY_WIDE_CELL_DEGREES) when it shares that one
// and that cell has at most LOCALITY_WIDE_CELL_CANDIDATES candidates (records far apart, localities
// sparse); a large cell where localities are dense would cost each row more than its own lookup.
// Rows alone in both cells, rows of a large cell with too many candidates, and cells with fewer
// localities anywhere than KNN_CANDIDATES, keep the lookup of their own.
export const LOCALITY_CELL_DEGREES = 0.01;
export const LOCALITY_WIDE_CELL_DEGREES = 1;
export const LOCALITY_WIDE_CELL_CANDIDATES = 64;

// The columns of a candidate locality a row takes from its cell (each gathered into an array per cell).
const TAKEN = ['name', 'label', 'locality', 'region_code', 'country_code'];

// CTEs over `rows` (id, location) ending in `cell_localities`: for each row whose locality its cell
// gives, its locality's id (loc_id), name, label, locality, region_code, country_code and location
// (loc_location). Each row picks from its cell's candidates (arrays, one row per cell) with a top-N
// sort of its own, so no sort runs over every (row, candidate) pair.
export function cellLocalitiesCtes(rows: string, candidates: number): string {
  const small = LOCALITY_CELL_DEGREES;
  const wide = LOCALITY_WIDE_CELL_DEGREES;
  const cell = (g: number) => `floor(ST_X(x.location) / ${g}), floor(ST_Y(x.location) / ${g})`;
  return `
    cell_rows AS MATERIALIZED (
      SELECT x.id, x.location, l.g, floor(ST_X(x.location) / l.g) AS cx, floor(ST_Y(x.location) / l.g) AS cy
      FROM (
        SELECT x.id, x.location, count(*) OVER (PARTITION BY ${cell(small)}) AS n_small,
               count(*) OVER (PARTITION BY ${cell(wide)}) AS n_wide
        FROM ${rows} x
      ) x
      CROSS JOIN LATERAL (
        SELECT CASE WHEN x.n_small > 1 THEN ${small}::float8 WHEN x.n_wide > 1 THEN ${wide}::float8 END AS g
      ) l
      WHERE l.g IS NOT NULL
    ),
    cells AS MATERIALIZED (
      SELECT x.g, x.cx, x.cy, ST_SetSRID(ST_MakePoint((x.cx + 0.5) * x.g, (x.cy + 0.5) * x.g), 4326) AS centre
      FROM cell_rows x GROUP BY x.g, x.cx, x.cy
    ),
    reach AS MATERIALIZED (
      SELECT c.g, c.cx, c.cy, c.centre, k.farthest + c.g * sqrt(2) AS radius
      FROM cells c
      CROSS JOIN LATERAL (
        SELECT max(n.d) AS farthest, count(*) AS found
        FROM (SELECT p.location <-> c.centre AS d FROM places p WHERE p.kind = 'locality'
              ORDER BY p.location <-> c.centre LIMIT ${candidates}) n
      ) k
      WHERE k.found = ${candidates}
    ),
    candidates AS MATERIALIZED (
      SELECT e.g, e.cx, e.cy, array_agg(p.id) AS ids, array_agg(p.location) AS locations,
             ${TAKEN.map((c) => `array_agg(p.${c}) AS ${c}s`).join(', ')}
      FROM reach e
      CROSS JOIN LATERAL (
        SELECT p.id, p.location, ${TAKEN.map((c) => `p.${c}`).join(', ')}
        FROM places p
        WHERE p.kind = 'locality' AND p.location && ST_Expand(e.centre, e.radius) AND (p.location <-> e.centre) <= e.radius
        LIMIT CASE WHEN e.g = ${small}::float8 THEN NULL ELSE ${LOCALITY_WIDE_CELL_CANDIDATES + 1} END
      ) p
      GROUP BY e.g, e.cx, e.cy
      HAVING e.g = ${small}::float8 OR count(*) <= ${LOCALITY_WIDE_CELL_CANDIDATES}
    ),
    cell_localities AS MATERIALIZED (
      SELECT x.id, c.ids[n.i] AS loc_id, ${TAKEN.map((col) => `c.${col}s[n.i] AS ${col}`).join(', ')},
             c.locations[n.i] AS loc_location
      FROM cell_rows x
      JOIN candidates c ON c.g = x.g AND c.cx = x.cx AND c.cy = x.cy
      CROSS JOIN LATERAL (
        SELECT k.i FROM (
          SELECT u.i, u.id, u.location FROM unnest(c.ids, c.locations) WITH ORDINALITY AS u(id, location, i)
          ORDER BY u.location <-> x.location, u.id
          LIMIT ${candidates}
        ) k
        ORDER BY ST_DistanceSphere(k.location, x.location), k.id
        LIMIT 1
      ) n
    )`;
}
