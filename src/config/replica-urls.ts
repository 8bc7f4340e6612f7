import { ValueType } from './setting-types';

// DATABASE_REPLICA_URLS: comma-separated postgresql:// URLs of streaming replicas. Messages name an
// item by its position and host, never by the whole URL (it may carry a password).
const MAX_REPLICAS = 16;
const SCHEME = /^postgres(ql)?:\/\/\S+$/;

export function splitReplicaUrls(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** What is wrong with the list (after the rule in the error message), or undefined when every item is usable. */
export function replicaUrlProblem(value: string): string | undefined {
  const urls = splitReplicaUrls(value);
  if (urls.length === 0) return 'it lists none';
  if (urls.length > MAX_REPLICAS) return `it lists ${urls.length}`;
  const seen = new Set<string>();
  for (const [i, url] of urls.entries()) {
    const item = `item ${i + 1}`;
    if (!SCHEME.test(url))
      return `${item} is not a postgresql:// connection string (like postgresql://user@replica-host:5432/lis)`;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `${item} is not a valid URL (percent-encode special characters in the user or password)`;
    }
    if (!parsed.hostname) return `${item} names no host`;
    const where = describeDatabaseUrl(url);
    if (seen.has(where)) return `${item} (${where}) is listed twice`;
    seen.add(where);
  }
  return undefined;
}

/** host:port/database, for logs, readiness and errors (no user or password). */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname === '/' ? '' : parsed.pathname}`;
}

export const replicaUrls: ValueType<string[]> = {
  rule: `a comma-separated list of up to ${MAX_REPLICAS} distinct postgresql:// connection strings`,
  accepts: (raw) => replicaUrlProblem(raw) === undefined,
  explain: (raw) => replicaUrlProblem(raw),
  parse: splitReplicaUrls,
};
