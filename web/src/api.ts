import type { MatchedPlace } from './place-text';
import type { SearchRequestBody } from './search-state';

export interface ImageryRecord {
  id: string;
  address: string;
  date: string;
  compass: string;
  interactive: boolean;
  geometry: { type: 'Point'; coordinates: [number, number] };
  image: string;
  /** Only with include: ["place"], and only for records linked to a place. */
  place?: MatchedPlace;
  /** Only with include: ["match"]: how the record matched the query. */
  match?: { kind: 'exact' | 'prefix' | 'partial' | 'corrected' | 'nearby' | 'fallback' | 'filter' };
}

/** What GET /images/{id}?include=heading,camera,sequence,history adds to a record (the viewer's). */
export interface ViewedRecord extends ImageryRecord {
  /** Degrees from north; null for a record that faces nothing. */
  heading: number | null;
  /** A photo's camera; null for a record not made from a photo. */
  camera: {
    make: string | null;
    model: string | null;
    projection: 'equirectangular' | 'perspective';
    /** A 360 image's geometry: where its centre column faces, and the part of the sphere it covers. */
    panorama: PanoramaGeometry | null;
  } | null;
  /** The photo's place in its sequence; null for a record not made from a photo. */
  sequence: { id: string; index: number; previous: string | null; next: string | null } | null;
  /** The other dates at its spot, newest first. */
  history: Array<{ id: string; date: string; image: string }>;
}

/** CameraPanoramaDto: in pixels of the stored image. */
export interface PanoramaGeometry {
  pose_heading: number | null;
  full_width: number;
  full_height: number;
  cropped_left: number;
  cropped_top: number;
  cropped_width: number;
  cropped_height: number;
}

export const VIEWER_INCLUDES = ['heading', 'camera', 'sequence', 'history'] as const;

/** With include: ["interpretation"]: how the query was read. */
export interface Interpretation {
  kind: 'text' | 'coordinates' | 'plus_code' | 'location_code';
  normalized: string;
  lat?: number;
  lon?: number;
  radius_m?: number;
  /** Coordinates or a plus code with nothing within radius_m: the nearest imagery the filters let through. */
  nearest?: { distance_m: number; lat: number; lon: number } | null;
  /** Text: true when what was found is not the words as typed (corrected, near the place named, a guess). */
  approximate?: boolean;
  /** Text: the words corrected. */
  corrections?: Array<{ from: string; to: string }>;
}

export interface SearchResponse {
  isSuccess: true;
  page: number;
  pageTotal: number;
  data: ImageryRecord[];
  result_id: string;
  /** The requested region's name, or "global" without one. */
  region: string;
  region_id: string | null;
  interpretation?: Interpretation | null;
}

export interface RegionOption {
  code: string;
  name: string;
}

export interface CountryOption extends RegionOption {
  /** How many first-level regions it has (0: the country is the only choice). */
  regions: number;
}

export interface PageConfig {
  demoKey: string | null;
  /** MAP_STYLE_URL: the operator's MapLibre style; null for the offline basemap. */
  mapStyleUrl: string | null;
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
  const request = () =>
    fetch('/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
      signal,
    });
  return answer<SearchResponse>(request, (payload) => payload.isSuccess === true);
}

// The API's answer, or its error as an ApiError (a network failure too; an abort is passed on).
async function answer<T>(request: () => Promise<Response>, isAnswer: (payload: Record<string, unknown>) => boolean) {
  let res: Response;
  try {
    res = await request();
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'NETWORK_ERROR', 'The service could not be reached. Is it running?');
  }
  const payload = await res.json().catch(() => null);
  if (res.ok && payload && isAnswer(payload)) return payload as T;
  const error = payload?.error;
  throw new ApiError(
    res.status,
    error?.code ?? 'UNKNOWN',
    error?.message ?? `The service answered ${res.status}`,
    error?.details,
  );
}

// One record by id (GET /images/{id}), with what the viewer shows of it.
export async function viewedRecord(key: string, id: string, signal?: AbortSignal): Promise<ViewedRecord> {
  const path = `/images/${encodeURIComponent(id)}?include=${VIEWER_INCLUDES.join(',')}`;
  return answer<ViewedRecord>(
    () => fetch(path, { headers: { 'x-api-key': key }, signal }),
    (p) => 'id' in p,
  );
}

export async function pageConfig(): Promise<PageConfig> {
  try {
    const res = await fetch('/config.json', { cache: 'no-store' });
    if (res.ok) {
      const config = (await res.json()) as Partial<PageConfig>;
      return { demoKey: config.demoKey ?? null, mapStyleUrl: config.mapStyleUrl ?? null };
    }
  } catch {
    // The page still works with a key typed by hand, on the offline basemap.
  }
  return { demoKey: null, mapStyleUrl: null };
}

// The region control's lists (GET /regions.json, /regions/{country}.json): public, no key, cached
// by the browser like any static file.
export async function regionCountries(): Promise<CountryOption[]> {
  return (await getJson<{ countries: CountryOption[] }>('/regions.json')).countries;
}

export async function countryRegions(country: string): Promise<RegionOption[]> {
  return (await getJson<{ regions: RegionOption[] }>(`/regions/${encodeURIComponent(country)}.json`)).regions;
}

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path);
  if (!res.ok) throw new ApiError(res.status, 'UNKNOWN', `The service answered ${res.status}`);
  return (await res.json()) as T;
}
