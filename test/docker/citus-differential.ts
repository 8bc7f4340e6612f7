import { SCORE_CAP } from '../../src/search/paging/search-limits';
import { DiffBody } from './citus-differential-queries';
import { REQUEST_TIMEOUT_MS } from './docker-harness';

// One answer of the differential suite: the HTTP status, the records' ids and scores in order, and
// the total (every body is asked with include: ["score", "total"]).
export interface DiffAnswer {
  status: number;
  ids: string[];
  /** Each record's score (asked for with include: ["score"]), to tell ties apart. */
  scores: number[];
  total?: number;
  /** false: counting stopped at the cap, and the page was ranked from the first matches read. */
  totalExact?: boolean;
  error?: string;
}

export async function answer(baseUrl: string, key: string, body: Record<string, unknown>): Promise<DiffAnswer> {
  const res = await fetch(`${baseUrl}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ ...body, include: ['score', 'total'] }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS * 3),
  });
  const json = (await res.json()) as {
    data?: Array<{ id: string; score?: number }>;
    total?: number;
    total_exact?: boolean;
    error?: { code?: string };
  };
  return {
    status: res.status,
    ids: (json.data ?? []).map((r) => r.id),
    scores: (json.data ?? []).map((r) => r.score ?? 0),
    total: json.total,
    totalExact: json.total_exact,
    error: json.error?.code,
  };
}

// Every body against both servers; the bodies whose answers differ (none, when the cluster serves the
// same answers as the single node).
export async function differences(
  bodies: DiffBody[],
  single: { url: string; key: string },
  cluster: { url: string; key: string },
): Promise<Array<{ body: DiffBody; single: DiffAnswer; cluster: DiffAnswer }>> {
  const out: Array<{ body: DiffBody; single: DiffAnswer; cluster: DiffAnswer }> = [];
  for (const b of bodies) {
    const [s, c] = [await answer(single.url, single.key, b.body), await answer(cluster.url, cluster.key, b.body)];
    if (!sameAnswer(s, c)) out.push({ body: b, single: s, cluster: c });
  }
  return out;
}

// Equal answers: the same status, total and scores, and the same records in the same order, except
// among records of equal score (their order is the database's physical order, which differs between
// two databases loaded alike), whose last group the page may cut at a different member.
// A search of more than SCORE_CAP matches ranks the first SCORE_CAP it reads, in physical order too
// (src/search/paging/search-limits.ts): there only the status, the total and the number of records are compared.
export function sameAnswer(a: DiffAnswer, b: DiffAnswer): boolean {
  const outline = (x: DiffAnswer) => JSON.stringify([x.status, x.total, x.totalExact, x.error, x.ids.length]);
  if (outline(a) !== outline(b)) return false;
  if (a.totalExact === false || (a.total ?? 0) > SCORE_CAP) return true;
  const head = (x: DiffAnswer) => JSON.stringify(x.scores);
  if (head(a) !== head(b)) return false;
  const last = a.scores.at(-1);
  const groups = (x: DiffAnswer) => {
    const byScore = new Map<number, string[]>();
    x.ids.forEach((id, i) => byScore.set(x.scores[i], [...(byScore.get(x.scores[i]) ?? []), id].sort()));
    return byScore;
  };
  const [ga, gb] = [groups(a), groups(b)];
  return [...ga.keys()].every(
    (score) => score === last || JSON.stringify(ga.get(score)) === JSON.stringify(gb.get(score)),
  );
}
