// The nearest locality of many rows at once. The rule is nearest('locality')'s in imagery-place-link.repository.ts:
// of the KNN_CANDIDATES localities nearest by planar distance in degrees, the nearest on the sphere.
// Looked up row by row, a KNN walk of the locality index was most of the linking time of an import
// (docs/benchmarks.md, figures behind the code); records come in streets and sequences, so many share a
// small grid cell, and the cell's candidates are looked up once: the KNN_CANDIDATES nearest to the
// cell's centre, and every locality up to the farthest of them plus the cell's diagonal. For any point
// of the cell, its KNN_CANDIDATES nearest are among those (each of the centre's is at most the
// farthest plus half the diagonal away from the point; any other locality, at least that far), so
// each row picks from the candidates exactly what its own lookup would (ties in planar distance are
// broken by id). Rows alone in their cell, and cells with fewer localities anywhere than
// KNN_CANDIDATES, keep the lookup of their own.
export const LOCALITY_CELL_DEGREES = 0.01;

// CTEs over `rows` (id, location, cx, cy; cx and cy from cellOf) ending in `cell_localities`: for each
// row in a shared cell, its locality's id (loc_id), name, label, locality, region_code, country_code
// and location (loc_location).
export function cellLocalitiesCtes(rows: string, candidates: number): string {
  const g = LOCALITY_CELL_DEGREES;
  return `
    cells AS MATERIALIZED (
      SELECT x.cx, x.cy, ST_SetSRID(ST_MakePoint((x.cx + 0.5) * ${g}, (x.cy + 0.5) * ${g}), 4326) AS centre
      FROM ${rows} x GROUP BY x.cx, x.cy HAVING count(*) > 1
    ),
    reach AS MATERIALIZED (
      SELECT c.cx, c.cy, c.centre, k.farthest + ${g} * sqrt(2) AS radius
      FROM cells c
      CROSS JOIN LATERAL (
        SELECT max(n.d) AS farthest, count(*) AS found
        FROM (SELECT p.location <-> c.centre AS d FROM places p WHERE p.kind = 'locality'
              ORDER BY p.location <-> c.centre LIMIT ${candidates}) n
      ) k
      WHERE k.found = ${candidates}
    ),
    candidates AS MATERIALIZED (
      SELECT e.cx, e.cy, p.id, p.name, p.label, p.locality, p.region_code, p.country_code, p.location
      FROM reach e
      JOIN places p ON p.kind = 'locality' AND p.location && ST_Expand(e.centre, e.radius)
      WHERE (p.location <-> e.centre) <= e.radius
    ),
    cell_localities AS MATERIALIZED (
      SELECT DISTINCT ON (t.id) t.id, t.loc_id, t.name, t.label, t.locality, t.region_code, t.country_code, t.loc_location
      FROM (
        SELECT x.id, x.location, c.id AS loc_id, c.name, c.label, c.locality, c.region_code, c.country_code,
               c.location AS loc_location,
               row_number() OVER (PARTITION BY x.id ORDER BY c.location <-> x.location, c.id) AS k
        FROM ${rows} x JOIN candidates c ON c.cx = x.cx AND c.cy = x.cy
      ) t
      WHERE t.k <= ${candidates}
      ORDER BY t.id, ST_DistanceSphere(t.loc_location, t.location), t.loc_id
    )`;
}

// The grid cell of a point (alias.location), as cellLocalitiesCtes reads it.
export function cellOf(location: string): string {
  const g = LOCALITY_CELL_DEGREES;
  return `floor(ST_X(${location}) / ${g}) AS cx, floor(ST_Y(${location}) / ${g}) AS cy`;
}
