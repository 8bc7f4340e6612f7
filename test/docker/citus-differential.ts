import { DiffBody } from './citus-differential-queries';
import { REQUEST_TIMEOUT_MS } from './docker-harness';

// One answer of the differential suite: the HTTP status, the records' ids in order, and the total
// when one was asked for.
export interface DiffAnswer {
  status: number;
  ids: string[];
  total?: number;
  error?: string;
}

export async function answer(baseUrl: string, key: string, body: Record<string, unknown>): Promise<DiffAnswer> {
  const res = await fetch(`${baseUrl}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS * 3),
  });
  const json = (await res.json()) as { data?: Array<{ id: string }>; total?: number; error?: { code?: string } };
  return {
    status: res.status,
    ids: (json.data ?? []).map((r) => r.id),
    total: json.total,
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
    if (JSON.stringify(s) !== JSON.stringify(c)) out.push({ body: b, single: s, cluster: c });
  }
  return out;
}
