import type { Rejection } from '../../import-formats/rejection';
import {
  HEADING_ORIGINS,
  MAX_METADATA_TEXT,
  OFFSET_ORIGINS,
  PhotoDetails,
  POSITION_ORIGINS,
  PROJECTIONS,
} from './photo-details';
import { UUID } from '../../common/uuid';

// A record's `photo` property as an export writes it (and the photo import makes it), checked field by
// field on the way in: a re-import keeps every photo's details, and a hand-edited file cannot put
// anything else into the photos table.

const HASH = /^[0-9a-f]{64}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

type Check = (v: unknown) => boolean;
const text: Check = (v) => typeof v === 'string' && v.length > 0 && v.length <= MAX_METADATA_TEXT;
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const int =
  (min: number, max: number): Check =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 1e7;
const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || v === undefined || check(v);
const panorama: Check = (v) =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.entries(v).every(([k, n]) =>
    ['fullWidth', 'fullHeight', 'croppedWidth', 'croppedHeight', 'croppedLeft', 'croppedTop', 'poseHeading'].includes(k)
      ? num(n)
      : false,
  );

const FIELDS: Record<keyof PhotoDetails, [Check, string]> = {
  contentHash: [(v) => typeof v === 'string' && HASH.test(v), 'a SHA-256 in lower-case hex'],
  bytes: [int(1, Number.MAX_SAFE_INTEGER), 'a positive integer'],
  capturedTime: [(v) => typeof v === 'string' && ISO_INSTANT.test(v), 'an ISO 8601 date-time with its offset'],
  timeZone: [nullable(text), 'an IANA time zone name'],
  offsetOrigin: [oneOf(OFFSET_ORIGINS), OFFSET_ORIGINS.join(' or ')],
  make: [nullable(text), `text of at most ${MAX_METADATA_TEXT} characters`],
  model: [nullable(text), `text of at most ${MAX_METADATA_TEXT} characters`],
  width: [int(1, 1_000_000), 'a positive integer'],
  height: [int(1, 1_000_000), 'a positive integer'],
  orientation: [nullable(int(1, 8)), 'an EXIF orientation from 1 to 8'],
  projection: [oneOf(PROJECTIONS), PROJECTIONS.join(' or ')],
  panorama: [nullable(panorama), 'an object of GPano sizes'],
  altitude: [nullable(num), 'a number of metres'],
  horizontalAccuracy: [nullable(num), 'a number of metres'],
  headingOrigin: [oneOf(HEADING_ORIGINS), HEADING_ORIGINS.join(', ')],
  headingReference: [nullable(oneOf(['true', 'magnetic'])), 'true or magnetic'],
  positionOrigin: [oneOf(POSITION_ORIGINS), POSITION_ORIGINS.join(' or ')],
  sequenceId: [(v) => typeof v === 'string' && UUID.test(v), 'a UUID'],
  sequenceIndex: [int(0, 1_000_000), 'a non-negative integer'],
};

export function validatePhotoDetails(
  raw: unknown,
): { ok: true; photo: PhotoDetails } | { ok: false; rejection: Rejection } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, rejection: { field: 'photo', reason: 'must be an object when present' } };
  const given = raw as Record<string, unknown>;
  const photo: Record<string, unknown> = {};
  for (const [field, [check, rule]] of Object.entries(FIELDS)) {
    if (!check(given[field])) return { ok: false, rejection: { field: `photo.${field}`, reason: `must be ${rule}` } };
    photo[field] = given[field] ?? null;
  }
  const unknown = Object.keys(given).find((k) => !(k in FIELDS));
  if (unknown) return { ok: false, rejection: { field: `photo.${unknown}`, reason: 'is not a photo field' } };
  if (typeof photo.sequenceId === 'string') photo.sequenceId = photo.sequenceId.toLowerCase();
  return { ok: true, photo: photo as unknown as PhotoDetails };
}
