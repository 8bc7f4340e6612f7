import { Prisma } from '@prisma/client';
import { FACING_HALF_ANGLE_DEG } from '../../common/facing';
import { LOCALITY_RECORDS_READ, PINNED_RECORDS_CAP } from '../paging/search-limits';
import { geography, showsPointSql } from './spatial.sql';
import { PIN_WEIGHTS } from '../ranking/score-weights';

/**
 * The places a query names, best first (see place-ranking.ts), and the score each adds to its
 * imagery: their imagery comes first, best place first. A place's imagery: records whose address
 * came from it (imagery.place_id), and records of its locality (imagery.locality_id) whose address
 * came from places or, for an address of their own, names it: a record of a village linked to the
 * nearest town of the gazetteer is not that town's imagery.
 */
export interface PlacePins {
  ids: string[];
  scores: number[];
  /** Per place, its name as a tsquery of whole words ("'san' & 'francisco'"). */
  names: string[];
  /**
   * The words of the best place's name as its addresses hold them ("el", "paso"): they go together,
   * which the estimate of a query's matches weighs (see shapeTextQuery).
   */
  nameWords: string[];
  /**
   * The addresses and POIs among the places the query names (MAX_VIEWS at most, best first): each
   * one's own records are ordered by how well they show it, and records within VIEW_RADIUS_M facing
   * it follow them.
   */
  views: Array<{ id: string; lon: number; lat: number; score: number }>;
  /**
   * The town the query names, when the best place is one: its records nearest its centre first; or
   * the street a fallback by parts answers with, its records nearest its point first. `radiusM`: how
   * near its point a record of another place counts as its imagery (CENTRE_RADIUS_M when not given).
   */
  centre?: { id: string; lon: number; lat: number; radiusM?: number } | null;
}

export const VIEW_RADIUS_M = 50;
// Nearer than this, the bearing to a point is noise (a street image's position is good to a few
// metres): the record stands at the address and counts as showing it whatever its heading.
export const AT_POINT_M = 5;

type View = PlacePins['views'][number];
// Views a search pins at most: the same name may be several POIs ("McDonald's" in two countries).
export const MAX_VIEWS = 3;
// A named town's imagery also holds every record this near its point, whatever place it was linked
// to: the view of a hamlet's centre is a record of the village or street around it.
export const CENTRE_RADIUS_M = 500;
// A street a fallback by parts answers with (a number it lacks) is shown by the records nearest its
// point (halfway along), its own and any other this near: the street as a whole, not one end of it.
export const STREET_CENTRE_RADIUS_M = VIEW_RADIUS_M;

// Whether the record shows the point: 360-degree images and those within AT_POINT_M always, others
// when their heading is within FACING_HALF_ANGLE_DEG of the bearing to it (one without a heading never).
function showsSql(view: View): Prisma.Sql {
  return showsPointSql(view, FACING_HALF_ANGLE_DEG, AT_POINT_M);
}

function viewedSql(view: View): Prisma.Sql {
  return Prisma.sql`(ST_DWithin(i.location::geography, ${geography(view)}, ${VIEW_RADIUS_M}::float8) AND ${showsSql(view)})`;
}

// Within CENTRE_RADIUS_M of a named town's point (the geography index's expression), on the sphere:
// it is tested on every pinned row, and the spheroid's few metres at 500 m cost four times as much.
function nearCentreSql(c: { lon: number; lat: number; radiusM?: number }): Prisma.Sql {
  return Prisma.sql`ST_DWithin(i.location::geography, ${geography(c)}, ${c.radiusM ?? CENTRE_RADIUS_M}::float8, false)`;
}

// Fragments one after another (Prisma.join refuses an empty list).
function joinOrEmpty(parts: Prisma.Sql[]): Prisma.Sql {
  return parts.length === 0 ? Prisma.empty : Prisma.join(parts, ' ');
}

// Metres on the sphere: a ranking term needs no spheroid, and a named town scores up to SCORE_CAP rows.
function sphereDistanceSql(point: { lon: number; lat: number }): Prisma.Sql {
  return Prisma.sql`ST_Distance(i.location::geography, ${geography(point)}, false)`;
}

// A record of a locality counts as its imagery when its address came from places or names it (the
// name as a tsquery).
function ofLocalitySql(name: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(i.address_origin <> 'own' OR i.address_tsv @@ ${name})`;
}

// The names as tsqueries, parsed once per statement, not per row for each record's locality
// (docs/benchmarks.md#fig-place-pin-names): an array of to_tsquery() calls on parameters, which
// the planner folds into one constant. Not a subquery (ARRAY(SELECT ...)): Citus cannot push a
// subquery in a select list down beside a window function (docs/scaling.md#citus).
const nameQueriesSql = (pins: PlacePins) =>
  pins.names.length === 0
    ? Prisma.sql`ARRAY[]::tsquery[]`
    : Prisma.sql`ARRAY[${Prisma.join(pins.names.map((name) => Prisma.sql`to_tsquery('simple', ${name})`))}]`;

// The score a record gets from its best named place, NULL when it is none's imagery. Arrays are
// 1-based; array_position of a NULL link is NULL, and greatest() skips NULLs. The named address's
// own records that show it score more, the nearer its point the more, and newer ones a little more
// (under 0.1); other records within VIEW_RADIUS_M that face it rank just below its own. A record
// takes its best score: one at a named poi's point that recovered the address of a lesser place the
// query also names (the poi's building, whose other name is the poi's) is the poi's view first. A
// named town's records score more the nearer its centre (PIN_WEIGHTS).
function pinScoreSql(pins: PlacePins): Prisma.Sql {
  const ids = Prisma.sql`${pins.ids}::uuid[]`;
  const scores = Prisma.sql`${pins.scores}::float8[]`;
  const locality = Prisma.sql`array_position(${ids}, i.locality_id)`;
  const linked = Prisma.sql`greatest((${scores})[array_position(${ids}, i.place_id)],
    CASE WHEN ${ofLocalitySql(Prisma.sql`(${nameQueriesSql(pins)})[${locality}]`)} THEN (${scores})[${locality}] END)`;
  const w = (weight: number) => Prisma.raw(String(weight));
  // A named town's records, and every record near its centre, score more the nearer its centre. The
  // distance test runs only on the rows not linked to it (coalesce and OR stop at the first answer).
  const c = pins.centre;
  const near = c ? nearCentreSql(c) : null;
  const base = c
    ? Prisma.sql`coalesce(${linked}, CASE WHEN ${near} THEN (${scores})[array_position(${ids}, ${c.id}::uuid)] END)
        + CASE WHEN ${c.id}::uuid IN (i.place_id, i.locality_id) OR ${near}
        THEN ${w(PIN_WEIGHTS.centre)} / (1 + ${sphereDistanceSql(c)} / ${w(PIN_WEIGHTS.centreHalfM)}) ELSE 0 END`
    : linked;
  if (pins.views.length === 0) return base;
  // A date minus a date is whole days: the weight is written as a decimal so the division is not an integer one.
  const recency = Prisma.sql`(i.captured_at - DATE '1970-01-01') / ${Prisma.raw(PIN_WEIGHTS.recencyDays.toFixed(1))}`;
  const nearness = (v: View) =>
    Prisma.sql`${w(PIN_WEIGHTS.nearness)} / (1 + ${sphereDistanceSql(v)} / ${w(PIN_WEIGHTS.nearnessHalfM)})`;
  const own = pins.views.map(
    (v) => Prisma.sql`CASE WHEN i.place_id = ${v.id}::uuid THEN ${linked}
        + CASE WHEN ${showsSql(v)} THEN ${w(PIN_WEIGHTS.showsAddress)} ELSE 0 END + ${nearness(v)} + ${recency} END`,
  );
  const viewed = pins.views.map(
    (v) =>
      Prisma.sql`CASE WHEN ${viewedSql(v)} THEN ${v.score}::float8 - ${w(PIN_WEIGHTS.viewedBelowOwn)} + ${nearness(v)} END`,
  );
  return Prisma.sql`greatest(${Prisma.join(own)}, ${base}, ${Prisma.join(viewed)})`;
}

/**
 * The pins as SQL on imagery (alias i): which records they pin, the score they add, and the pinned
 * rows (those that also pass `alsoWhere`, an `AND ...` condition on i, when given).
 */
export function pinsSql(
  pins: PlacePins,
  alsoWhere: Prisma.Sql = Prisma.empty,
  distributed = false,
): { isPinned: Prisma.Sql; score: Prisma.Sql; rows: Prisma.Sql } {
  const score = pinScoreSql(pins);
  // The index-friendly part first (imagery_place_id_idx, imagery_locality_id_idx, the geography GiST
  // index), then the exact rule. Not wrapped in coalesce(): it is only ever a condition (WHERE, CASE
  // WHEN), where NULL is false, and coalesce() hid the OR from the planner, so a sorted search
  // counted its matches by reading all of imagery (see test/medium/place-search-plans.spec.ts).
  const candidates = Prisma.sql`(i.place_id = ANY(${pins.ids}::uuid[]) OR i.locality_id = ANY(${pins.ids}::uuid[])
    ${pins.centre ? Prisma.sql`OR ${nearCentreSql(pins.centre)}` : Prisma.empty}
    ${joinOrEmpty(pins.views.map((v) => Prisma.sql`OR ${viewedSql(v)}`))})`;
  return {
    isPinned: Prisma.sql`(${candidates} AND (${score}) IS NOT NULL)`,
    score: Prisma.sql`coalesce(${score}, 0)`,
    rows: pinnedRowsSql(pins, alsoWhere, distributed),
  };
}

// The records of the named places, best place first, PINNED_RECORDS_CAP at most: a named town's
// records nearest its centre (a nearest-first probe of the geography index, bounded by
// CENTRE_RADIUS_M), then per place an index probe that stops at the cap. A locality's records are
// read from its index and checked one by one (LOCALITY_RECORDS_READ at most): the planner otherwise
// ANDed them with every address holding the name in the text index, whose size grows with the
// catalogue (docs/benchmarks.md#fig-locality-records).
function pinnedRowsSql(pins: PlacePins, alsoWhere: Prisma.Sql, distributed: boolean): Prisma.Sql {
  // The centre's rows first, then the places' in order, read only as far as the cap: an Append runs
  // its parts one after the other, so when the centre fills the cap the places are never read (an
  // ORDER BY over both would read every place's records to sort them).
  const places = distributed ? eachPlaceSql(pins, alsoWhere) : lateralPlacesSql(pins, alsoWhere);
  const c = pins.centre;
  const named = c
    ? Prisma.sql`SELECT u.id FROM (
        (SELECT i.id FROM imagery i WHERE ${nearCentreSql(c)} ${alsoWhere}
          ORDER BY i.location::geography <-> ${geography(c)} LIMIT ${PINNED_RECORDS_CAP})
        UNION ALL (${places})
      ) u LIMIT ${PINNED_RECORDS_CAP}`
    : places;
  return Prisma.sql`
    SELECT r.id, false AS code_match FROM (${named}) r
    ${joinOrEmpty(
      pins.views.map(
        (v) =>
          Prisma.sql`UNION ALL (SELECT i.id, false AS code_match FROM imagery i WHERE ${viewedSql(v)} ${alsoWhere} LIMIT ${PINNED_RECORDS_CAP})`,
      ),
    )}`;
}

// One named place's records: those whose address came from it, then those of its locality that are
// its imagery (ofLocalitySql on the name's tsquery).
function placeRowsSql(id: Prisma.Sql, name: Prisma.Sql, alsoWhere: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT i.id FROM imagery i WHERE i.place_id = ${id} ${alsoWhere} LIMIT ${PINNED_RECORDS_CAP})
        UNION ALL
        (SELECT l.id FROM (
          SELECT i.id, ${ofLocalitySql(name)} ${alsoWhere} AS its
          FROM imagery i WHERE i.locality_id = ${id} LIMIT ${LOCALITY_RECORDS_READ}
        ) l WHERE l.its LIMIT ${PINNED_RECORDS_CAP})`;
}

// On one server: a LATERAL probe per place of the arrays, in their order (the ordinality is the
// function scan's order, so the cap stops the probes without a sort), each name parsed once.
function lateralPlacesSql(pins: PlacePins, alsoWhere: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
      SELECT x.id FROM unnest(${pins.ids}::uuid[], ${pins.names}::text[]) WITH ORDINALITY AS p(id, name, n)
      CROSS JOIN LATERAL (SELECT to_tsquery('simple', p.name) AS name) q
      CROSS JOIN LATERAL (
        ${placeRowsSql(Prisma.sql`p.id`, Prisma.sql`q.name`, alsoWhere)}
      ) x
      ORDER BY p.n
      LIMIT ${PINNED_RECORDS_CAP}`;
}

// With imagery distributed (Citus): each place's probes are queries of their own on its id, one after
// the other (UNION ALL; an Append reads its parts in order, so the rows and their order are the LATERAL
// form's). Citus plans each as a query of imagery alone, where a LATERAL read with its own LIMIT is
// refused (docs/scaling.md#citus). Not on one server: a pair of subqueries per place (up to
// MAX_PINNED_PLACES) costs the planner more than the probes cost to run.
function eachPlaceSql(pins: PlacePins, alsoWhere: Prisma.Sql): Prisma.Sql {
  const each = pins.ids.map((id, k) =>
    placeRowsSql(Prisma.sql`${id}::uuid`, Prisma.sql`to_tsquery('simple', ${pins.names[k]})`, alsoWhere),
  );
  return Prisma.sql`
      SELECT x.id FROM (${Prisma.join(each, ' UNION ALL ')}) x
      LIMIT ${PINNED_RECORDS_CAP}`;
}
