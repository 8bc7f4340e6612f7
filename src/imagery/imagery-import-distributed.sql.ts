// The import's own statements where imagery is distributed (Citus, docs/scaling.md#citus). On one server
// the upsert probes imagery once per staged row, --delete-missing anti-joins imagery with the seen ids,
// and imagery's statement triggers keep the vocabulary, the ranked lists and the coverage cells' touched
// locations up to date. Citus plans none of these: no read of a distributed table correlated with a
// temporary one, and no trigger on a distributed table (the migrator drops them, citus-layout.ts). So here:
//  - readStored copies the batch's stored rows (every data column) into the temporary table `stored`
//    once; settling, the upsert and its dry run compare with that copy (the upsert's INSERT ... SELECT
//    reads temporary tables alone, which Citus plans);
//  - the upkeep the triggers do is done by the batch itself, from `stored` (the rows before) and the
//    staging table (the rows after), by the triggers' rules (the vocabulary's counts by the function the
//    trigger runs, lis_add_word_counts; the medium spec imagery-import-distributed.spec.ts compares both
//    on one server);
//  - --delete-missing gathers the source's ids on the coordinator, keeps those not seen, and deletes
//    them by that list after the same upkeep.
// A concurrent import of another source that writes the same ids between readStored and the upsert is
// not seen by the upkeep (imports of one source are serialised by its lock).
import { addressTsvSql as tsv, addWordCountsSql as addWordCounts } from '../search-index/vocabulary-upkeep.sql';
import type { ImportTables } from './imagery-import.sql';
// Whether the coverage cells see a change: lis_note_coverage_touched's columns.
const COVERAGE_COLUMNS = ['lon', 'lat', 'captured_at', 'heading', 'interactive'];

// `t.missing` holds --delete-missing's list. The upkeep needs no copy of the upsert's choice of rows: a
// record whose words, point, date, heading or 360 flag change is one the upsert writes.
export function distributedImportSql(t: ImportTables) {
  const joined = `FROM ${t.staging} n LEFT JOIN ${t.stored} o ON o.id = n.id`;
  const readdressed = `o.address_tsv IS DISTINCT FROM ${tsv('n.address')}`;
  const list = (a: string) => COVERAGE_COLUMNS.map((c) => `${a}.${c}`).join(', ');
  return {
    createStored: `CREATE TEMP TABLE ${t.stored} (
        id uuid NOT NULL, lon float8 NOT NULL, lat float8 NOT NULL, address text, address_origin text,
        place_id uuid, locality_id uuid, region_code text, country_code text, captured_at date, heading float8,
        interactive boolean, image_url text, location geometry, source text, address_tsv tsvector
      ) ON COMMIT DELETE ROWS`,
    // $1: the batch's ids (an array parameter: each shard probes its primary key for them).
    readStored: `
    INSERT INTO ${t.stored} (id, lon, lat, address, address_origin, place_id, locality_id, region_code,
      country_code, captured_at, heading, interactive, image_url, location, source, address_tsv)
    SELECT i.id, ST_X(i.location), ST_Y(i.location), i.address, i.address_origin, i.place_id, i.locality_id,
      i.region_code, i.country_code, i.captured_at, i.heading, i.interactive, i.image_url, i.location, i.source,
      i.address_tsv
    FROM imagery i
    WHERE i.id = ANY($1::uuid[])`,

    // After the upsert, in its transaction, as lis_count_words: the words of each changed record's
    // address before (removed) and after (added).
    countWords: addWordCounts({
      removed: `SELECT o.address_tsv ${joined} WHERE o.id IS NOT NULL AND ${readdressed}`,
      added: `SELECT ${tsv('n.address')} ${joined} WHERE ${readdressed}`,
    }),
    // lis_unrank_readdressed: a record whose words change leaves the ranked lists until their refresh.
    unrankReaddressed: `
    DELETE FROM imagery_word_ranks r
    WHERE r.imagery_id IN (SELECT n.id ${joined} WHERE o.id IS NOT NULL AND ${readdressed})`,
    // lis_note_coverage_touched: where a record appears, or both points of one whose point, date, heading
    // or 360 flag changes; a first load marks everything instead ($1: whether one runs).
    noteCoverage: `
    INSERT INTO coverage_touched (location)
    SELECT NULL WHERE $1::boolean
    UNION ALL
    SELECT v.location ${joined}
    CROSS JOIN LATERAL (VALUES (o.location), (ST_SetSRID(ST_MakePoint(n.lon, n.lat), 4326))) AS v(location)
    WHERE NOT $1::boolean AND v.location IS NOT NULL
      AND (o.id IS NULL OR (${list('o')}) IS DISTINCT FROM (${list('n')}))`,

    // --delete-missing ($1: the source), in one transaction: the list, the rows it names read into
    // `stored`, the upkeep the delete triggers do, then the delete by the list.
    createMissing: `CREATE TEMP TABLE IF NOT EXISTS ${t.missing} (id uuid PRIMARY KEY)`,
    gatherMissing: `INSERT INTO ${t.missing} (id) SELECT t.id FROM imagery t WHERE t.source = $1`,
    keepUnseen: `DELETE FROM ${t.missing} m USING ${t.seen} s WHERE s.id = m.id`,
    countMissing: `SELECT count(*)::int AS n FROM ${t.missing}`,
    readMissing: `
    INSERT INTO ${t.stored} (id, lon, lat, location, address_tsv)
    SELECT i.id, ST_X(i.location), ST_Y(i.location), i.location, i.address_tsv
    FROM imagery i
    WHERE i.id IN (SELECT m.id FROM ${t.missing} m)`,
    uncountMissing: addWordCounts({ removed: `SELECT o.address_tsv FROM ${t.stored} o` }),
    unrankMissing: `DELETE FROM imagery_word_ranks r WHERE r.imagery_id IN (SELECT o.id FROM ${t.stored} o)`,
    // $1: whether a first load runs.
    noteMissingCoverage: `
    INSERT INTO coverage_touched (location)
    SELECT NULL WHERE $1::boolean
    UNION ALL
    SELECT o.location FROM ${t.stored} o WHERE NOT $1::boolean`,
    deleteListed: `DELETE FROM imagery t WHERE t.id IN (SELECT m.id FROM ${t.missing} m)`,
    deleteListedPhotos: `DELETE FROM photos p WHERE p.id IN (SELECT m.id FROM ${t.missing} m)`,
  };
}
