import { invalidParameter } from './stac.exception';

// The `datetime` parameter (OGC API Features, STAC item search): an RFC 3339 instant, or an interval
// `start/end` with `..` (or nothing) for an open end. A record's capture is a calendar date, so an item
// covers its whole UTC day (start_datetime .. end_datetime): it matches when its day meets the instant
// or interval. The result is the inclusive range of capture dates, open ends undefined.
export interface CaptureDateRange {
  from?: string;
  to?: string;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2}))?$/;
// What PostgreSQL's date holds that a STAC datetime can name.
const FIRST_DATE = '0001-01-01';
const LAST_DATE = '9999-12-31';
const RULE = 'must be an RFC 3339 date-time or an interval start/end (`..` for an open end)';

export function parseDatetime(value: unknown): CaptureDateRange {
  if (typeof value !== 'string' || value.length > 80) throw invalidParameter('datetime', RULE);
  const parts = value.split('/');
  if (parts.length > 2) throw invalidParameter('datetime', RULE);
  if (parts.length === 1) {
    const day = utcDay(parts[0]);
    return { from: day, to: day };
  }
  const [start, end] = parts.map((p) => (p === '..' || p === '' ? undefined : utcDay(p)));
  if (start !== undefined && end !== undefined && start > end) {
    throw invalidParameter('datetime', 'must not end before it starts');
  }
  return { from: start, to: end };
}

// The UTC calendar day an instant falls on (a bare date is that day).
function utcDay(text: string): string {
  if (!DATE_TIME.test(text)) throw invalidParameter('datetime', RULE);
  const bare = text.length === 10;
  const ms = Date.parse(bare ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
  if (Number.isNaN(ms) || !inCalendar(text)) throw invalidParameter('datetime', `${RULE}: ${text}`);
  const day = new Date(ms).toISOString().slice(0, 10);
  if (day < FIRST_DATE) return FIRST_DATE;
  return day > LAST_DATE || day.startsWith('+') ? LAST_DATE : day;
}

// Date.parse rolls 2021-02-30 over to March; a date that is not in the calendar is refused instead.
function inCalendar(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  const check = new Date(0);
  check.setUTCFullYear(y, m - 1, d);
  return check.getUTCMonth() === m - 1 && check.getUTCDate() === d;
}
