import { METRES_PER_DEGREE } from '../../common/earth';
import { LatLon, parseCoordinates } from './coordinates';
import { RADIUS_DEFAULT_M, RADIUS_MAX_M } from '../dto/search-filters.dto';
import { SearchException, SearchExceptionCode } from '../search.exception';
import { buildTextQuery, TextQuery } from './text-query';
import { nameNearPoint } from './name-near-point';

interface CodeArea {
  latitudeLo: number;
  longitudeLo: number;
  latitudeHi: number;
  longitudeHi: number;
  latitudeCenter: number;
  longitudeCenter: number;
}
interface OpenLocationCodeApi {
  isValid(code: string): boolean;
  isFull(code: string): boolean;
  isShort(code: string): boolean;
  decode(code: string): CodeArea;
  recoverNearest(shortCode: string, lat: number, lon: number): string;
}
// open-location-code is Google's reference implementation (CommonJS, no dependencies, offline); it ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OpenLocationCode } = require('open-location-code') as { OpenLocationCode: new () => OpenLocationCodeApi };
const olc = new OpenLocationCode();
const PLUS_CODE_SHAPE = /^[23456789CFGHJMPQRVWX0]{2,8}\+[23456789CFGHJMPQRVWX]*$/i;

// What the query text asks for. Text (and location codes, which are decided by the database) carry
// a TextQuery; coordinates and plus codes carry a point and the radius to search around it.
export type QueryInterpretation =
  | { kind: 'text'; normalized: string; text: TextQuery | null; near?: LatLon & { radiusM: number } }
  | { kind: 'coordinates' | 'plus_code'; normalized: string; point: LatLon; radiusM: number };

// `reference` (the request's `near` point, when it has one) lets a short plus code ("9G8F+6X") be recovered.
export function interpretQuery(query: string, reference?: Partial<LatLon>): QueryInterpretation {
  const trimmed = query.trim();
  if (PLUS_CODE_SHAPE.test(trimmed) && olc.isValid(trimmed.toUpperCase()))
    return plusCode(trimmed.toUpperCase(), reference);

  const coordinates = parseCoordinates(trimmed);
  if (coordinates && !coordinates.ok) {
    throw new SearchException(
      SearchExceptionCode.INVALID_COORDINATES,
      'query',
      `query looks like coordinates, but ${coordinates.reason}`,
    );
  }
  if (coordinates) {
    // Rounded to 1e-7 degrees (about a centimetre): DMS arithmetic leaves float noise.
    const point = { lat: round7(coordinates.point.lat), lon: round7(coordinates.point.lon) };
    return { kind: 'coordinates', normalized: `${point.lat},${point.lon}`, point, radiusM: RADIUS_DEFAULT_M };
  }

  // A name beside coordinates: the name, searched near the point (name-near-point.ts).
  const named = nameNearPoint(trimmed);
  if (named) {
    const text = buildTextQuery(named.name);
    const near = { lat: round7(named.point.lat), lon: round7(named.point.lon), radiusM: named.radiusM };
    return { kind: 'text', normalized: text ? text.words.join(' ') : '', text, near };
  }
  const text = buildTextQuery(trimmed);
  return { kind: 'text', normalized: text ? text.words.join(' ') : '', text };
}

function plusCode(code: string, reference?: Partial<LatLon>): QueryInterpretation {
  let full = code;
  if (!olc.isFull(code)) {
    if (!olc.isShort(code) || reference?.lat === undefined || reference.lon === undefined) {
      throw new SearchException(
        SearchExceptionCode.INVALID_PLUS_CODE,
        'query',
        `${code} is a short plus code; give the full code (like 8FVC9G8F+6X) or a near point to recover it from`,
      );
    }
    full = olc.recoverNearest(code, reference.lat, reference.lon);
  }
  const area = olc.decode(full);
  const point = { lat: round7(area.latitudeCenter), lon: round7(area.longitudeCenter) };
  // The code is an area: search at least the default radius, and at least the area's half diagonal.
  const height = (area.latitudeHi - area.latitudeLo) * METRES_PER_DEGREE;
  const width = (area.longitudeHi - area.longitudeLo) * METRES_PER_DEGREE * Math.cos((point.lat * Math.PI) / 180);
  const radiusM = Math.min(RADIUS_MAX_M, Math.max(RADIUS_DEFAULT_M, Math.hypot(height, width) / 2));
  return { kind: 'plus_code', normalized: full, point, radiusM };
}

export function round7(n: number): number {
  return Math.round(n * 1e7) / 1e7;
}
