import { ImportCounts, writeChangedBenchRecords } from './citus-differential-queries';
import { ComposeProject, runOk } from './docker-harness';

// The import compared on the single node and the cluster (test/docker/citus.spec.ts): a changed copy of
// the generated records (writeChangedBenchRecords), with --delete-missing, into both: the import CLI's
// counts, then digests of the records, the vocabulary and the ranked lists both databases hold.
export async function importChangedIntoBoth(o: {
  project: ComposeProject;
  apiContainer: string;
  changedFile: string;
  records: number;
  singleNodeUrl: string;
  cluster: (query: string) => Promise<string>;
  single: (query: string) => Promise<string>;
  timed: <T>(label: string, work: () => Promise<T>) => Promise<T>;
}): Promise<void> {
  const expected = await o.timed('generate the changed records', async () =>
    writeChangedBenchRecords(o.changedFile, o.records),
  );
  await runOk('docker', ['cp', o.changedFile, `${o.apiContainer}:/tmp/bench-changed.ndjson`]);
  const cli = ['node', 'dist/src/cli/import.cli.js', '/tmp/bench-changed.ndjson', '--source', 'bench'];
  const importInto = (env: string[]) =>
    o.project.ok(['exec', '-T', ...env, 'api', ...cli, '--delete-missing'], 1_800_000);
  // Side by side, as the spec's first loads.
  const [single, cluster] = await o.timed('changed import (single node and cluster, side by side)', () =>
    Promise.all([importInto(['-e', `DATABASE_URL=${o.singleNodeUrl}`]), importInto([])]),
  );
  console.log(`citus, the changed import:\n--- single node\n${single}\n--- cluster (distributed)\n${cluster}`);
  expect(importCounts(cluster).counts).toEqual(importCounts(single).counts);
  expect(importCounts(single).counts).toEqual(expected);
  // Not a comparison of two no-ops: every kind of change, each in at least 1 in 100 records.
  const { inserted, updated, unchanged, deleted } = expected;
  expect(Math.min(inserted, updated, unchanged, deleted)).toBeGreaterThanOrEqual(o.records / 100);
  // The ranked lists were refreshed on both (from the same history, to the same lists).
  expect(cluster).not.toMatch(/not brought up to date/);
  for (const digest of [IMAGERY_DIGEST_SQL, WORDS_DIGEST_SQL, RANKS_DIGEST_SQL])
    expect((await o.cluster(digest)).trim()).toBe((await o.single(digest)).trim());
}

/** The counts of the import CLI's summary line ("read 9, inserted 1, updated 2, ..."), and the line. */
export function importCounts(output: string): { line: string; counts: ImportCounts } {
  const line = /^.*\bread \d+, inserted \d+, .*$/m.exec(output)?.[0];
  if (!line) throw new Error(`no import summary in:\n${output.slice(-4000)}`);
  const count = (what: string) => {
    const m = new RegExp(`\\b${what} (\\d+)`).exec(line);
    if (!m) throw new Error(`no "${what}" in the import summary: ${line}`);
    return Number(m[1]);
  };
  const counts = {
    read: count('read'),
    inserted: count('inserted'),
    updated: count('updated'),
    unchanged: count('unchanged'),
    deleted: count('deleted'),
    rejected: count('rejected'),
  };
  return { line, counts };
}

// Each record's stored fields (the linked locality, the location as text) in id order, as one md5; the
// row's text form tells NULL from an empty string.
export const IMAGERY_DIGEST_SQL = `SELECT count(*) || ' ' || md5(string_agg(r, E'\\n' ORDER BY id))
  FROM (SELECT id, ROW(id, address, address_origin, locality_id, ST_AsText(location), captured_at, heading,
    source)::text AS r FROM imagery) s`;

// The vocabulary: each word with the number of addresses holding it.
export const WORDS_DIGEST_SQL = `SELECT count(*) || ' ' || md5(string_agg(word || ':' || docs, ',' ORDER BY word))
  FROM imagery_words`;

// The ranked word lists: every entry (term, score, record).
export const RANKS_DIGEST_SQL = `SELECT count(*) || ' ' || md5(string_agg(word || ':' || score || ':' || imagery_id, ','
  ORDER BY word, score, imagery_id)) FROM imagery_word_ranks`;
