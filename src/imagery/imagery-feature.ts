import { v5 as uuidv5 } from 'uuid';

// Namespace for ids derived from content when a Feature has none, so re-imports stay idempotent.
const CONTENT_ID_NAMESPACE = 'a4f0c1de-7d4b-4e0e-9a0b-5f2d8c3e1b77';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
export const MAX_ADDRESS_LENGTH = 1000;
export const MAX_IMAGE_URL_LENGTH = 2048;

export interface ImageryRecord {
  id: string;
  address: string;
  capturedAt: string; // YYYY-MM-DD
  heading: number;
  interactive: boolean;
  imageUrl: string;
  lon: number;
  lat: number;
}

export interface Rejection {
  field: string;
  reason: string;
}

export type FeatureResult = { ok: true; record: ImageryRecord } | { ok: false; rejection: Rejection };

const reject = (field: string, reason: string): FeatureResult => ({ ok: false, rejection: { field, reason } });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Validates one GeoJSON Feature of the import format; returns the record or the first problem found.
export function parseFeature(feature: unknown): FeatureResult {
  if (!isObject(feature) || feature.type !== 'Feature') return reject('type', 'must be a GeoJSON Feature');

  const geometry = feature.geometry;
  if (!isObject(geometry) || geometry.type !== 'Point') return reject('geometry', 'must be a GeoJSON Point');
  const coords = geometry.coordinates;
  if (!Array.isArray(coords) || coords.length < 2 || coords.length > 3 || !coords.every((c) => typeof c === 'number' && Number.isFinite(c))) {
    return reject('geometry.coordinates', 'must be [lon, lat] numbers');
  }
  const [lon, lat] = coords as number[];
  if (lon < -180 || lon > 180) return reject('geometry.coordinates', 'longitude must be between -180 and 180');
  if (lat < -90 || lat > 90) return reject('geometry.coordinates', 'latitude must be between -90 and 90');

  const p = feature.properties;
  if (!isObject(p)) return reject('properties', 'must be an object');

  if (typeof p.address !== 'string' || p.address.trim() === '') return reject('address', 'is required and must be a non-empty string');
  const address = p.address.replace(/\u0000/g, '').trim();
  if (address.length > MAX_ADDRESS_LENGTH) return reject('address', `must be at most ${MAX_ADDRESS_LENGTH} characters`);

  if (typeof p.captured_at !== 'string') return reject('captured_at', 'is required and must be an ISO 8601 date or date-time');
  const capturedAt = calendarDate(p.captured_at);
  if (!capturedAt) return reject('captured_at', `is not a valid ISO 8601 date or date-time: ${truncate(p.captured_at)}`);

  if (typeof p.heading !== 'number' || !Number.isFinite(p.heading)) return reject('heading', 'is required and must be a number of degrees');
  if (p.heading < 0 || p.heading >= 360) return reject('heading', 'must be at least 0 and less than 360');

  if (p.interactive !== undefined && p.interactive !== null && typeof p.interactive !== 'boolean') {
    return reject('interactive', 'must be a boolean');
  }

  if (typeof p.image_url !== 'string' || p.image_url.trim() === '') return reject('image_url', 'is required and must be a string');
  const imageUrl = p.image_url.trim();
  if (imageUrl.length > MAX_IMAGE_URL_LENGTH) return reject('image_url', `must be at most ${MAX_IMAGE_URL_LENGTH} characters`);
  if (!isImageUrl(imageUrl)) return reject('image_url', 'must be an absolute http(s) URL or a relative path');

  let id: string;
  if (feature.id === undefined || feature.id === null) {
    id = uuidv5(JSON.stringify([address, capturedAt, p.heading, p.interactive === true, imageUrl, lon, lat]), CONTENT_ID_NAMESPACE);
  } else if (typeof feature.id === 'string' && UUID.test(feature.id)) {
    id = feature.id.toLowerCase();
  } else {
    return reject('id', 'must be a UUID when present');
  }

  return { ok: true, record: { id, address, capturedAt, heading: p.heading, interactive: p.interactive === true, imageUrl, lon, lat } };
}

// The calendar date as written (no time-zone shift), or null for impossible dates like 2021-02-30.
export function calendarDate(value: string): string | null {
  const m = ISO_DATE.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 60)) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function isImageUrl(url: string): boolean {
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
