import { RADIUS_MAX_M } from '../search/dto/search-filters.dto';
import { QUERY_MAX_LENGTH } from '../search/dto/search-request.dto';
import { StreetViewException } from './streetview.exception';

// The parameters of GET /maps/api/streetview/metadata that this service reads. Google's image
// parameters (size, heading, pitch, fov, return_error_code, signature) are accepted and ignored, as
// the metadata endpoint does.
export interface StreetViewRequest {
  /** An address, a place, or `lat,lng`: whatever POST /search reads as a query. */
  location: string;
  radiusM: number;
}

export const RADIUS_DEFAULT_M = 50;
const SOURCES = ['default', 'outdoor'];

export function parseStreetViewRequest(query: Record<string, unknown>): StreetViewRequest {
  const { location, radius, source } = query;
  if (location === undefined) throw new StreetViewException('location', 'is required');
  if (typeof location !== 'string') throw new StreetViewException('location', 'must be given once');
  const text = location.replace(/\p{Cc}/gu, ' ').trim();
  if (text.length === 0 || text.length > QUERY_MAX_LENGTH) {
    throw new StreetViewException('location', `must be 1 to ${QUERY_MAX_LENGTH} characters`);
  }
  if (source !== undefined && (typeof source !== 'string' || !SOURCES.includes(source))) {
    throw new StreetViewException('source', `must be ${SOURCES.join(' or ')}`);
  }
  return { location: text, radiusM: radius === undefined ? RADIUS_DEFAULT_M : parseRadius(radius) };
}

function parseRadius(value: unknown): number {
  const n = typeof value === 'string' && /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= RADIUS_MAX_M)) {
    throw new StreetViewException('radius', `must be a number of metres from 1 to ${RADIUS_MAX_M}`);
  }
  return n;
}
