// Capped searches read "the first N matches found": these keep that set the same on every run (no
// scan starting where another left off, no parallel workers racing), so pages never overlap. No JIT:
// a plan whose rarely-run branch looks costly was compiled for longer than it ran
// (docs/benchmarks.md#fig-no-jit). Prepared statements are planned for each request's values, never
// once for all (a common word and a rare one want different plans).
export const SESSION_OPTIONS =
  '-c synchronize_seqscans=off -c max_parallel_workers_per_gather=0 -c jit=off -c plan_cache_mode=force_custom_plan';

// The same settings for the sessions a Citus coordinator opens on its workers (set on the database, which
// Citus passes on to them; see citus-layout.ts): the shards' reads of capped searches must be as repeatable as one server's. The plan
// cache mode is not among them: the coordinator sends the workers statements with the values in them.
export const WORKER_SESSION_SETTINGS: ReadonlyArray<[string, string]> = [
  ['synchronize_seqscans', 'off'],
  ['max_parallel_workers_per_gather', '0'],
  ['jit', 'off'],
];
