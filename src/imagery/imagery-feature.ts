import { v5 as uuidv5 } from 'uuid';
import { isCalendarDate } from '../common/calendar-date';
import type { GeoJsonItem } from '../import-formats/geojson-seq.reader';
import { MAX_ADDRESS_LENGTH } from '../import-formats/record-limits';
import type { Rejection } from '../import-formats/rejection';
import type { PhotoDetails } from './photo-details/photo-details';
import { validatePhotoDetails } from './photo-details/photo-details.validator';
import { UUID } from '../common/uuid';

// Namespace for ids derived from content when a Feature has none, so re-imports stay idempotent.
const CONTENT_ID_NAMESPACE = 'a4f0c1de-7d4b-4e0e-9a0b-5f2d8c3e1b77';
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
  /** Degrees from north; null only for a photo that gave no direction (photo.headingOrigin 'none'): it faces nothing. */
  heading: number | null;
  interactive: boolean;
  imageUrl: string;
  lon: number;
  lat: number;
  /** What the photo import read from the camera file (the photos table), for a record made from a photo. */
  photo?: PhotoDetails;
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
  photo?: unknown;
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
      photo: p.photo,
    },
    GEOJSON_COORDINATES,
  );
}

// The rules every record obeys whatever format it came in; returns the record or the first problem found.
export function validateRecord(raw: RawRecord, coordinates: CoordinateFields = FLAT_COORDINATES): FeatureResult {
  const position = checkedPosition(raw, coordinates);
  if (!position.ok) return position;
  const { lon, lat } = position.value;
  const described = checkedDescription(raw);
  if (!described.ok) return described;
  const { address, addressOrigin, source } = described.value;

  if (typeof raw.captured_at !== 'string')
    return reject('captured_at', 'is required and must be an ISO 8601 date or date-time');
  const capturedAt = calendarDate(raw.captured_at);
  if (!capturedAt)
    return reject('captured_at', `is not a valid ISO 8601 date or date-time: ${truncate(raw.captured_at)}`);

  const heading = checkedHeading(raw);
  if (!heading.ok) return heading;

  if (!isMissing(raw.interactive) && typeof raw.interactive !== 'boolean')
    return reject('interactive', 'must be a boolean');
  const interactive = raw.interactive === true;

  const imageUrl = checkedImageUrl(raw);
  if (!imageUrl.ok) return imageUrl;
  const id = checkedId(raw, [address, capturedAt, raw.heading, interactive, imageUrl.value, lon, lat]);
  if (!id.ok) return id;

  const record: ImageryRecord = {
    id: id.value,
    address,
    addressOrigin,
    source,
    capturedAt,
    heading: heading.value,
    interactive,
    imageUrl: imageUrl.value,
    lon,
    lat,
  };
  if (!isMissing(raw.photo)) {
    const photo = validatePhotoDetails(raw.photo);
    if (!photo.ok) return photo;
    record.photo = photo.photo;
  }
  return { ok: true, record };
}

// One rule of validateRecord: the field's value, or the record's rejection.
type Checked<T> = { ok: true; value: T } | ReturnType<typeof reject>;

function checkedPosition(raw: RawRecord, coordinates: CoordinateFields): Checked<{ lon: number; lat: number }> {
  const { lon, lat } = raw;
  if (isMissing(lon)) return reject(coordinates.lon, 'longitude is required');
  if (typeof lon !== 'number' || !Number.isFinite(lon)) return reject(coordinates.lon, 'longitude must be a number');
  if (lon < -180 || lon > 180) return reject(coordinates.lon, 'longitude must be between -180 and 180');
  if (isMissing(lat)) return reject(coordinates.lat, 'latitude is required');
  if (typeof lat !== 'number' || !Number.isFinite(lat)) return reject(coordinates.lat, 'latitude must be a number');
  if (lat < -90 || lat > 90) return reject(coordinates.lat, 'latitude must be between -90 and 90');
  return { ok: true, value: { lon, lat } };
}

// The address, where it came from, and the record's source.
function checkedDescription(
  raw: RawRecord,
): Checked<{ address: string | null; addressOrigin: AddressOrigin; source: string | null }> {
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
  return { ok: true, value: { address, addressOrigin, source: (raw.source as string | undefined) ?? null } };
}

// A photo that gave no direction has no heading (null); every other record has one.
function checkedHeading(raw: RawRecord): Checked<number | null> {
  const heading = raw.heading;
  if (isObject(raw.photo) && raw.photo.headingOrigin === 'none') {
    if (!isMissing(heading)) return reject('heading', 'must be null for a photo whose photo.headingOrigin is none');
    return { ok: true, value: null };
  }
  if (typeof heading !== 'number' || !Number.isFinite(heading))
    return reject('heading', 'is required and must be a number of degrees');
  if (heading < 0 || heading >= 360) return reject('heading', 'must be at least 0 and less than 360');
  return { ok: true, value: heading };
}

function checkedImageUrl(raw: RawRecord): Checked<string> {
  if (typeof raw.image_url !== 'string' || raw.image_url.trim() === '')
    return reject('image_url', 'is required and must be a string');
  const imageUrl = raw.image_url.trim();
  if (imageUrl.length > MAX_IMAGE_URL_LENGTH)
    return reject('image_url', `must be at most ${MAX_IMAGE_URL_LENGTH} characters`);
  if (!isImageUrl(imageUrl)) return reject('image_url', 'must be an absolute http(s) URL or a relative path');
  return { ok: true, value: imageUrl };
}

// The record's own UUID, or one derived from its content (so the same record imported again keeps its id).
function checkedId(raw: RawRecord, content: unknown[]): Checked<string> {
  if (isMissing(raw.id) || raw.id === '')
    return { ok: true, value: uuidv5(JSON.stringify(content), CONTENT_ID_NAMESPACE) };
  if (typeof raw.id === 'string' && UUID.test(raw.id)) return { ok: true, value: raw.id.toLowerCase() };
  return reject('id', 'must be a UUID when present');
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
