import { MAX_METADATA_TEXT } from '../photo-limits';

// Reading the value forms EXIF and XMP write: numbers, rationals ("1763/10"), degrees-minutes-seconds
// arrays, XMP coordinates ("34,22.91611E"), EXIF and ISO date-times. Each returns undefined for anything
// it cannot read, so a malformed tag reads as absent.

const finite = (n: number): number | undefined => (Number.isFinite(n) ? n : undefined);

/** A number, a numeric string, or a "numerator/denominator" rational. */
export function numberValue(v: unknown): number | undefined {
  if (typeof v === 'number') return finite(v);
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  const rational = /^(-?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(s);
  if (rational) return Number(rational[2]) === 0 ? undefined : finite(Number(rational[1]) / Number(rational[2]));
  return /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(s) ? finite(Number(s)) : undefined;
}

/**
 * A coordinate in degrees: EXIF [deg, min, sec] (with its N/S/E/W ref), a decimal, or XMP's
 * "DDD,MM.mmk" / "DDD,MM,SSk" form (whose last letter is the ref). `negative` is the ref that flips it.
 */
export function coordinateValue(v: unknown, ref: unknown, negative: 'S' | 'W'): number | undefined {
  let degrees: number | undefined;
  let direction = typeof ref === 'string' ? ref.trim().toUpperCase().charAt(0) : '';
  if (Array.isArray(v)) {
    const parts = v.map(numberValue);
    if (parts.length === 0 || parts.length > 3 || parts.some((p) => p === undefined || p < 0)) return undefined;
    const [d, m = 0, s = 0] = parts as number[];
    degrees = d + m / 60 + s / 3600;
  } else if (typeof v === 'string' && /[NSEW]$/i.test(v.trim())) {
    const text = v.trim();
    direction = text.slice(-1).toUpperCase();
    const parts = text.slice(0, -1).split(',').map(numberValue);
    if (parts.length === 0 || parts.length > 3 || parts.some((p) => p === undefined || p < 0)) return undefined;
    const [d, m = 0, s = 0] = parts as number[];
    degrees = d + m / 60 + s / 3600;
  } else {
    degrees = numberValue(v);
  }
  if (degrees === undefined) return undefined;
  return direction === negative ? -Math.abs(degrees) : degrees;
}

/** The parts of a local date-time as the camera wrote it, with the offset when it wrote one. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** "+02:00", "-07:00", "Z" as "+00:00"; absent when the value carried none. */
  offset?: string;
}

// "2018:06:08 13:24:10", "2018-06-08T13:24:10.5+02:00", "2019-07-16T10:26:11", a date alone is not a time.
const DATE_TIME =
  /^(\d{4})[:-](\d{2})[:-](\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

export function dateTimeValue(v: unknown): LocalDateTime | undefined {
  if (typeof v !== 'string') return undefined;
  const m = DATE_TIME.exec(v.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  if (year < 1800 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return undefined;
  const parsed: LocalDateTime = {
    year,
    month,
    day,
    hour,
    minute,
    second: Math.min(second, 59),
    millisecond: m[7] ? fractionMs(m[7]) : 0,
  };
  const offset = m[8] && offsetValue(m[8]);
  if (offset) parsed.offset = offset;
  return parsed;
}

/** "54" -> 540 ms, "935476" -> 935 ms (EXIF SubSecTime digits are a decimal fraction of a second). */
export function fractionMs(digits: string): number {
  return /^\d+$/.test(digits) ? Math.min(999, Math.floor(Number(`0.${digits}`) * 1000)) : 0;
}

/** "+02:00", "-0700", "Z" -> "+02:00", "-07:00", "+00:00"; undefined for anything else or beyond +-14:00. */
export function offsetValue(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (/^z$/i.test(s)) return '+00:00';
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(s);
  if (!m || Number(m[2]) > 14 || Number(m[3]) > 59) return undefined;
  return `${m[1]}${m[2]}:${m[3]}`;
}

// C0 and C1 control characters: what textValue removes.
const CONTROL = /\p{Cc}/gu;

/** Printable text, trimmed and cut to MAX_METADATA_TEXT; undefined when nothing printable is left. */
export function textValue(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).replace(CONTROL, '').trim();
  return s === '' ? undefined : s.slice(0, MAX_METADATA_TEXT);
}
