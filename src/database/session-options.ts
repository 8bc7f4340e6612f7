// Capped searches read "the first N matches found": these keep that set the same on every run (no
// scan starting where another left off, no parallel workers racing), so pages never overlap. No JIT:
// a plan whose rarely-run branch looks costly was compiled for longer than it ran (docs/benchmarks.md, figures behind the code). Prepared
// statements are planned for each request's values, never once for all (a common word and a rare
// one want different plans).
export const SESSION_OPTIONS =
  '-c synchronize_seqscans=off -c max_parallel_workers_per_gather=0 -c jit=off -c plan_cache_mode=force_custom_plan';
