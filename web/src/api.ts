import type { SearchRequestBody } from './search-state';

export interface ImageryRecord {
  id: string;
  address: string;
  date: string;
  compass: string;
  interactive: boolean;
  geometry: { type: 'Point'; coordinates: [number, number] };
  image: string;
}

export interface SearchResponse {
  isSuccess: true;
  page: number;
  pageTotal: number;
  data: ImageryRecord[];
  result_id: string;
}

export interface PageConfig {
  demoKey: string | null;
}

// The API's one error shape, kept whole so the page can name the problem.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { field: string; message: string }[] = [],
  ) {
    super(message);
  }

  get isKeyProblem(): boolean {
    return this.code === 'MISSING_API_KEY' || this.code === 'INVALID_API_KEY';
  }
}

export async function search(key: string, body: SearchRequestBody, signal?: AbortSignal): Promise<SearchResponse> {
  let res: Response;
  try {
    res = await fetch('/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'NETWORK_ERROR', 'The service could not be reached. Is it running?');
  }
  const payload = await res.json().catch(() => null);
  if (res.ok && payload?.isSuccess) return payload as SearchResponse;
  const error = payload?.error;
  throw new ApiError(res.status, error?.code ?? 'UNKNOWN', error?.message ?? `The service answered ${res.status}`, error?.details);
}

export async function pageConfig(): Promise<PageConfig> {
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    if (res.ok) return (await res.json()) as PageConfig;
  } catch {
    // The page still works with a key typed by hand.
  }
  return { demoKey: null };
}
