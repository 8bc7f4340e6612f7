import { v5 as uuidv5 } from 'uuid';
import { isCalendarDate } from '../common/calendar-date';
import type { GeoJsonItem } from '../import-formats/geojson-seq.reader';
import { MAX_ADDRESS_LENGTH } from '../import-formats/record-limits';
import type { Rejection } from '../import-formats/rejection';

// Namespace for ids derived from content when a Feature has none, so re-imports stay idempotent.
const CONTENT_ID_NAMESPACE = 'a4f0c1de-7d4b-4e0e-9a0b-5f2d8c3e1b77';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
// C0/C1 controls: PostgreSQL text cannot hold NUL, and none belong in a URL.
const CONTROL_CHARS = /\p{Cc}/u;
export const MAX_IMAGE_URL_LENGTH = 2048;
// A source name: 1 to 200 printable ASCII characters, no leading or trailing space.
export const SOURCE_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;

// Where a record's address comes from: its own, or recovered from the nearest address place, named
// street or locality (see docs/places.md, "Imagery without addresses").
export const ADDRESS_ORIGINS = ['own', 'address', 'street', 'locality', 'plus_code'] as const;
export type AddressOrigin = (typeof ADDRESS_ORIGINS)[number];

export interface ImageryRecord {
  id: string;
  /** null when the input gave none: the importer recovers one from the places near the record. */
  address: string | null;
  /**
   * 'own' for an address the input gave as the record's own. An exported record says how its address
   * was recovered; the importer then recovers it again from its own places (keeping the given one when
   * it has none near), so a round trip changes nothing.
   */
  addressOrigin: AddressOrigin;
  /** The record's own source tag (an import's --source, when given, takes its place). */
  source: string | null;
  capturedAt: string; // YYYY-MM-DD
  heading: number;
  interactive: boolean;
  imageUrl: string;
  lon: number;
  lat: number;
}

export type FeatureResult = { ok: true; record: ImageryRecord } | { ok: false; rejection: Rejection };

// One record's fields before validation, as a reader found them (typed where the format has types).
export interface RawRecord {
  id?: unknown;
  address?: unknown;
  address_origin?: unknown;
  source?: unknown;
  captured_at?: unknown;
  heading?: unknown;
  interactive?: unknown;
  image_url?: unknown;
  lon?: unknown;
  lat?: unknown;
}

// What a format reader yields per record (the GeoJSON readers of import-formats/, formats/csv.reader.ts),
// before validation: a GeoJSON Feature is validated by parseFeature.
export interface FeatureItem extends GeoJsonItem {
  /** A flat record (CSV), validated by validateRecord. */
  record?: RawRecord;
}

// The name a rejection gives the coordinates: `lon`/`lat` for flat formats, the GeoJSON path otherwise.
export interface CoordinateFields {
  lon: string;
  lat: string;
}

const FLAT_COORDINATES: CoordinateFields = { lon: 'lon', lat: 'lat' };
const GEOJSON_COORDINATES: CoordinateFields = { lon: 'geometry.coordinates', lat: 'geometry.coordinates' };

export const reject = (field: string, reason: string): { ok: false; rejection: Rejection } => ({
  ok: false,
  rejection: { field, reason },
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isMissing = (v: unknown) => v === undefined || v === null;

// Validates one GeoJSON Feature of the import format; returns the record or the first problem found.
export function parseFeature(feature: unknown): FeatureResult {
  if (!isObject(feature) || feature.type !== 'Feature') return reject('type', 'must be a GeoJSON Feature');

  const geometry = feature.geometry;
  if (!isObject(geometry) || geometry.type !== 'Point') return reject('geometry', 'must be a GeoJSON Point');
  const coords = geometry.coordinates;
  if (
    !Array.isArray(coords) ||
    coords.length < 2 ||
    coords.length > 3 ||
    !coords.every((c) => typeof c === 'number' && Number.isFinite(c))
  ) {
    return reject('geometry.coordinates', 'must be [lon, lat] numbers');
  }

  const p = feature.properties;
  if (!isObject(p)) return reject('properties', 'must be an object');

  return validateRecord(
    {
      id: feature.id,
      address: p.address,
      address_origin: p.address_origin,
      source: p.source,
      captured_at: p.captured_at,
      heading: p.heading,
      interactive: p.interactive,
      image_url: p.image_url,
      lon: coords[0],
      lat: coords[1],
    },
    GEOJSON_COORDINATES,
  );
}

// The rules every record obeys whatever format it came in; returns the record or the first problem found.
export function validateRecord(raw: RawRecord, coordinates: CoordinateFields = FLAT_COORDINATES): FeatureResult {
  const { lon, lat } = raw;
  if (isMissing(lon)) return reject(coordinates.lon, 'longitude is required');
  if (typeof lon !== 'number' || !Number.isFinite(lon)) return reject(coordinates.lon, 'longitude must be a number');
  if (lon < -180 || lon > 180) return reject(coordinates.lon, 'longitude must be between -180 and 180');
  if (isMissing(lat)) return reject(coordinates.lat, 'latitude is required');
  if (typeof lat !== 'number' || !Number.isFinite(lat)) return reject(coordinates.lat, 'latitude must be a number');
  if (lat < -90 || lat > 90) return reject(coordinates.lat, 'latitude must be between -90 and 90');

  // Optional: a record without one (missing, null or blank) gets one recovered from places on import.
  if (!isMissing(raw.address) && typeof raw.address !== 'string')
    return reject('address', 'must be a string when present');
  const address =
    typeof raw.address === 'string'
      ? (raw.address.includes('\u0000') ? raw.address.replaceAll('\u0000', '') : raw.address).trim() || null
      : null;
  if (address !== null && address.length > MAX_ADDRESS_LENGTH)
    return reject('address', `must be at most ${MAX_ADDRESS_LENGTH} characters`);

  if (!isMissing(raw.address_origin) && !(ADDRESS_ORIGINS as readonly unknown[]).includes(raw.address_origin)) {
    return reject('address_origin', `must be one of ${ADDRESS_ORIGINS.join(', ')} when present`);
  }
  const addressOrigin = address === null ? 'own' : ((raw.address_origin as AddressOrigin | undefined) ?? 'own');

  if (!isMissing(raw.source) && (typeof raw.source !== 'string' || !SOURCE_PATTERN.test(raw.source))) {
    return reject('source', 'must be 1 to 200 printable ASCII characters when present');
  }
  const source = (raw.source as string | undefined) ?? null;

  if (typeof raw.captured_at !== 'string')
    return reject('captured_at', 'is required and must be an ISO 8601 date or date-time');
  const capturedAt = calendarDate(raw.captured_at);
  if (!capturedAt)
    return reject('captured_at', `is not a valid ISO 8601 date or date-time: ${truncate(raw.captured_at)}`);

  const heading = raw.heading;
  if (typeof heading !== 'number' || !Number.isFinite(heading))
    return reject('heading', 'is required and must be a number of degrees');
  if (heading < 0 || heading >= 360) return reject('heading', 'must be at least 0 and less than 360');

  if (!isMissing(raw.interactive) && typeof raw.interactive !== 'boolean')
    return reject('interactive', 'must be a boolean');
  const interactive = raw.interactive === true;

  if (typeof raw.image_url !== 'string' || raw.image_url.trim() === '')
    return reject('image_url', 'is required and must be a string');
  const imageUrl = raw.image_url.trim();
  if (imageUrl.length > MAX_IMAGE_URL_LENGTH)
    return reject('image_url', `must be at most ${MAX_IMAGE_URL_LENGTH} characters`);
  if (!isImageUrl(imageUrl)) return reject('image_url', 'must be an absolute http(s) URL or a relative path');

  let id: string;
  if (isMissing(raw.id) || raw.id === '') {
    id = uuidv5(JSON.stringify([address, capturedAt, heading, interactive, imageUrl, lon, lat]), CONTENT_ID_NAMESPACE);
  } else if (typeof raw.id === 'string' && UUID.test(raw.id)) {
    id = raw.id.toLowerCase();
  } else {
    return reject('id', 'must be a UUID when present');
  }

  return {
    ok: true,
    record: { id, address, addressOrigin, source, capturedAt, heading, interactive, imageUrl, lon, lat },
  };
}

// The calendar date as written (no time-zone shift), or null for impossible dates like 2021-02-30.
export function calendarDate(value: string): string | null {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return null;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (!isCalendarDate(date)) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 60)) return null;
  return date;
}

function isImageUrl(url: string): boolean {
  if (CONTROL_CHARS.test(url)) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    try {
      const parsed = new URL(url);
      return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
    } catch {
      return false;
    }
  }
  // Relative: a path without whitespace or a scheme-relative '//host' form.
  return !url.startsWith('//') && !/\s/.test(url);
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
