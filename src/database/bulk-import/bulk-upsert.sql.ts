// The set-based upsert both importers (imagery, places) run on a staged batch, and its dry-run twin.

export interface BulkUpsertTable {
  /** The target table; its primary key is `id`. */
  table: string;
  /** What a row holds; a row whose values all equal the stored ones is unchanged and not written. */
  dataColumns: readonly string[];
  /** The staged batch as target rows: a SELECT of id and every data column (it may use $1). */
  incoming: string;
  /** A table holding the batch's stored rows (id and every data column), compared with instead of probing
   * `table` (where Citus cannot probe it from a temporary table, see imagery-import-distributed.sql.ts). */
  current?: string;
}

export function bulkUpsertSql({ table, dataColumns, incoming, current }: BulkUpsertTable): {
  upsert: string;
  classify: string;
} {
  const list = (alias: string) => dataColumns.map((c) => `${alias}.${c}`).join(', ');
  const changed = (current: string, next: string) => `(${list(current)}) IS DISTINCT FROM (${list(next)})`;
  // The batch, each row with the current row of the same id (cur.found is null when there is none). The
  // probe is a LATERAL subquery fenced with OFFSET 0 so it stays one primary-key lookup per staged row:
  // as a join, the planner may hash or scan the whole table for every batch.
  const incomingWithCurrent = `
    WITH n AS (${incoming}
    )
    SELECT n.*, cur.found, ${changed('cur', 'n')} AS changed
    FROM n
    ${
      current
        ? `LEFT JOIN (SELECT t.id, true AS found, ${list('t')} FROM ${current} t) cur ON cur.id = n.id`
        : `LEFT JOIN LATERAL (
      SELECT true AS found, ${list('t')} FROM ${table} t WHERE t.id = n.id OFFSET 0
    ) cur ON true`
    }`;
  return {
    // Unchanged rows are filtered out by the read-only probe first, so re-importing a file writes nothing
    // at all (ON CONFLICT would still lock every row); the WHERE on the update keeps that true under
    // concurrent writers. (xmax = 0) tells inserts from updates; rows go in id order so concurrent
    // imports take locks alike. updated_at comes in with the row: Citus allows only IMMUTABLE functions
    // in DO UPDATE SET, so now() is not called there.
    upsert: `
      WITH up AS (
        INSERT INTO ${table} AS t (id, ${dataColumns.join(', ')}, updated_at)
        SELECT n.id, ${list('n')}, now()
        FROM (${incomingWithCurrent}) n
        WHERE n.found IS NULL OR n.changed
        ORDER BY n.id
        ON CONFLICT (id) DO UPDATE SET
          ${dataColumns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = EXCLUDED.updated_at
        WHERE ${changed('t', 'EXCLUDED')}
        RETURNING (t.xmax = 0) AS inserted
      )
      SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM up`,
    // The dry-run twin of upsert: the same probe and comparison, read-only.
    classify: `
      SELECT count(*) FILTER (WHERE n.found IS NULL)::int AS inserted, count(*) FILTER (WHERE n.found AND n.changed)::int AS updated
      FROM (${incomingWithCurrent}) n`,
  };
}
