import tzlookup from '@photostructure/tz-lookup';
import { DateTime, FixedOffsetZone } from 'luxon';
import type { LocalDateTime } from './exif-values';

// A photo's capture instant: the local time the camera wrote, in the offset it wrote (OffsetTimeOriginal),
// else in the time zone of its position (Panoramax's rule; a maintained zone lookup, DST by luxon).

export interface CaptureTime {
  /** ISO 8601 with the offset: 2018-06-08T13:24:10-07:00 (milliseconds only when the camera wrote them). */
  iso: string;
  /** Milliseconds since the epoch, for ordering and for a GPX track. */
  epochMs: number;
  /** The calendar date as the camera wrote it (the contract's `date`). */
  date: string;
  offsetOrigin: 'exif' | 'position';
  /** The IANA zone of the position, when known. */
  timeZone?: string;
}

/** The IANA zone at a point (the nearest one at sea), or undefined when the lookup has none. */
export function zoneAt(lat: number, lon: number): string | undefined {
  try {
    return tzlookup(lat, lon);
  } catch {
    return undefined;
  }
}

export function captureTime(local: LocalDateTime, zone: string | undefined): CaptureTime | undefined {
  const parts = {
    year: local.year,
    month: local.month,
    day: local.day,
    hour: local.hour,
    minute: local.minute,
    second: local.second,
    millisecond: local.millisecond,
  };
  const offsetOrigin = local.offset ? 'exif' : 'position';
  const where = local.offset ? FixedOffsetZone.parseSpecifier(`UTC${local.offset}`) : zone;
  if (!where) return undefined;
  const t = DateTime.fromObject(parts, { zone: where });
  if (!t.isValid) return undefined;
  const iso = t.toISO({ suppressMilliseconds: true });
  if (!iso) return undefined;
  return {
    iso,
    epochMs: t.toMillis(),
    date: `${pad(local.year, 4)}-${pad(local.month)}-${pad(local.day)}`,
    offsetOrigin,
    ...(zone ? { timeZone: zone } : {}),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The capture time moved by a camera clock's error (--time-offset), in the same offset. */
export function shiftCapture(time: CaptureTime, seconds: number): CaptureTime {
  if (seconds === 0) return time;
  const t = DateTime.fromISO(time.iso, { setZone: true }).plus({ seconds });
  return { ...time, iso: t.toISO({ suppressMilliseconds: true })!, epochMs: t.toMillis(), date: t.toISODate()! };
}
