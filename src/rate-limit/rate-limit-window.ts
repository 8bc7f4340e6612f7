// The rate-limit window, stated once. Two storages keep the counters: MemoryRateLimitStorage in this
// process, and in Redis the Lua script of @nest-lab/throttler-storage-redis (one atomic script per hit,
// run as the package ships it; this project keeps no copy of it). Both must answer every hit alike, so
// the rule is written here as the cases they answer, and test/medium/rate-limit-window.spec.ts runs
// each case on both (Redis a real server, its clock moved on by shortening the counters' TTLs;
// test/unit/rate-limit.service.spec.ts runs them on the memory counters alone). A change to either
// side that answers one hit differently, or a new version of the package that does, fails it.
//
// The rule:
// - a window starts at a counter's first hit and lasts `ttl`; its hits are counted from 1, and a hit
//   after its end starts the next window;
// - the first hit over `limit` blocks the counter for `blockDuration` from that hit; hits while
//   blocked are refused and do not lengthen the block; once the block is over, the next hit over the
//   limit (the window may still run) blocks again;
// - a block outlives its window: the next window's hits are refused until the block is over;
// - each policy name counts apart, even on the same key;
// - the times left are answered in whole seconds, rounded up (0 for the block when not blocked).

/** What a storage answers to a hit: the throttler's record, as a tuple. */
export type WindowAnswer = [totalHits: number, timeToExpire: number, isBlocked: boolean, timeToBlockExpire: number];

export interface WindowHit {
  /** Milliseconds since the case's first hit. */
  at: number;
  /** The policy counted ('p' when absent). */
  name?: string;
  answer: WindowAnswer;
}

export interface WindowCase {
  rule: string;
  ttl: number;
  limit: number;
  blockDuration: number;
  hits: WindowHit[];
}

const MINUTE = 60_000;

export const RATE_LIMIT_WINDOW: readonly WindowCase[] = [
  {
    rule: 'counts the hits of a window from its first one and answers the time left in it',
    ttl: MINUTE,
    limit: 5,
    blockDuration: MINUTE,
    hits: [
      { at: 0, answer: [1, 60, false, 0] },
      { at: 30_000, answer: [2, 30, false, 0] },
      { at: 59_000, answer: [3, 1, false, 0] },
    ],
  },
  {
    rule: 'starts the next window, counted from 1, at the first hit after the last one ended',
    ttl: MINUTE,
    limit: 5,
    blockDuration: MINUTE,
    hits: [
      { at: 0, answer: [1, 60, false, 0] },
      { at: 60_000, answer: [1, 60, false, 0] },
      { at: 90_000, answer: [2, 30, false, 0] },
    ],
  },
  {
    rule: 'blocks from the first hit over the limit, and hits while blocked do not lengthen the block',
    ttl: MINUTE,
    limit: 2,
    blockDuration: MINUTE,
    hits: [
      { at: 0, answer: [1, 60, false, 0] },
      { at: 50_000, answer: [2, 10, false, 0] },
      { at: 50_000, answer: [3, 10, true, 60] },
      { at: 51_000, answer: [4, 9, true, 59] },
    ],
  },
  {
    rule: 'refuses the next window while the block lasts, then counts on and blocks again over the limit',
    ttl: MINUTE,
    limit: 2,
    blockDuration: MINUTE,
    hits: [
      { at: 0, answer: [1, 60, false, 0] },
      { at: 50_000, answer: [2, 10, false, 0] },
      { at: 50_000, answer: [3, 10, true, 60] },
      { at: 70_000, answer: [1, 60, true, 40] },
      { at: 110_000, answer: [2, 20, false, 0] },
      { at: 110_000, answer: [3, 20, true, 60] },
    ],
  },
  {
    rule: 'blocks again when a block shorter than the window is over and the hits are still over the limit',
    ttl: MINUTE,
    limit: 1,
    blockDuration: 10_000,
    hits: [
      { at: 0, answer: [1, 60, false, 0] },
      { at: 1_000, answer: [2, 59, true, 10] },
      { at: 11_000, answer: [3, 49, true, 10] },
    ],
  },
  {
    rule: 'counts each policy name apart on the same key',
    ttl: MINUTE,
    limit: 1,
    blockDuration: MINUTE,
    hits: [
      { at: 0, name: 'p', answer: [1, 60, false, 0] },
      { at: 0, name: 'q', answer: [1, 60, false, 0] },
      { at: 0, name: 'p', answer: [2, 60, true, 60] },
      { at: 0, name: 'q', answer: [2, 60, true, 60] },
    ],
  },
];
