import { signedImagePath } from '../../photos/serving/image-signature';
import { isOwnImagePath } from '../../photos/serving/image-urls';

// How a capture reads in a search response (and on a demo image): its date in words, the compass sector it
// faces, its image's absolute URL. Its address and place are not here: they come from the search itself.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

// 'YYYY-MM-DD' (a calendar date, no time zone) -> 'June 5, 2019'.
export function formatCaptureDate(isoDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) throw new Error(`not a calendar date: ${isoDate}`);
  return `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}, ${Number(m[1])}`;
}

const SECTORS = [
  ['North', 'N'],
  ['Northeast', 'NE'],
  ['East', 'E'],
  ['Southeast', 'SE'],
  ['South', 'S'],
  ['Southwest', 'SW'],
  ['West', 'W'],
  ['Northwest', 'NW'],
] as const;

export type CompassAbbr = (typeof SECTORS)[number][1];

// 8 sectors of 45 degrees centred on their direction: North is [337.5, 22.5).
export function compassSector(headingDeg: number): CompassAbbr {
  const normalized = ((headingDeg % 360) + 360) % 360;
  return SECTORS[Math.floor((normalized + 22.5) / 45) % 8][1];
}

// The response's `compass`. A record without a heading faces nothing, but the contract's form needs a
// sector: it says North as a placeholder (the `heading` include gives null; docs/api.md).
export function formatCompass(headingDeg: number | null): string {
  const abbr = headingDeg === null ? 'N' : compassSector(headingDeg);
  const [name] = SECTORS.find(([, a]) => a === abbr)!;
  return `Facing ${name} (${abbr})`;
}

/** A record's image path as the URL clients get: absolute, and the service's own photo images signed when IMAGE_URL_SECRET makes them private. */
export function recordImageUrl(
  path: string,
  id: string,
  config: { imageBaseUrl: string; imageUrlSecret?: string },
): string {
  const secret = config.imageUrlSecret;
  return resolveImageUrl(
    secret && isOwnImagePath(path) ? signedImagePath(path, id, secret) : path,
    config.imageBaseUrl,
  );
}

// Absolute http(s) URLs are returned as stored; relative paths are joined to the configured base.
export function resolveImageUrl(stored: string, baseUrl: string): string {
  if (/^https?:\/\//i.test(stored)) return stored;
  return `${baseUrl.replace(/\/+$/, '')}/${stored.replace(/^\/+/, '')}`;
}
