// Coordinates typed as a query: decimal degrees ("47.1427, 9.5188", "-33.86 151.21",
// "47.1427N 9.5188E") and degrees-minutes(-seconds) ("47°08'33.8"N 9°31'07.7"E", "N 47° 8.563' E 9° 31.128'").
// Hand-written rather than geo-coordinates-parser: that package rejects valid pairs such as
// "-33.86, 151.21" and cannot say why a pair is impossible, which the API must.

export interface LatLon {
  lat: number;
  lon: number;
}

export type CoordinateParse = { ok: true; point: LatLon } | { ok: false; reason: string } | null;

const NUM = String.raw`\d{1,3}(?:\.\d+)?`;
const MIN_SEC = String.raw`\d{1,2}(?:\.\d+)?`;
// Sign, degrees (° optional), minutes ('), seconds ("); each part captured.
const BODY = String.raw`([+-])?\s*(${NUM})\s*(°)?\s*(?:(${MIN_SEC})\s*'\s*)?(?:(${MIN_SEC})\s*"\s*)?`;
// A hemisphere letter before or after, never both.
const COMPONENT = String.raw`(?:([NSEW])\s*${BODY}|${BODY}(?:\s*([NSEW]))?)`;
// Between the two: a comma, semicolon or slash, whitespace, or nothing right after a letter or mark.
const SEPARATOR = String.raw`(?:\s*[,;/]\s*|\s+|(?<=[NSEW°'"]))`;
const PAIR = new RegExp(String.raw`^${COMPONENT}${SEPARATOR}${COMPONENT}$`, 'i');
const GROUPS_PER_COMPONENT = 12;

interface Component {
  hemisphere?: string;
  sign?: string;
  degrees: string;
  degreeMark: boolean;
  minutes?: string;
  seconds?: string;
}

function component(m: RegExpMatchArray, at: number): Component {
  const g = m.slice(at, at + GROUPS_PER_COMPONENT);
  // Groups: [pre-hemisphere, sign, deg, °, min, sec] then [sign, deg, °, min, sec, post-hemisphere].
  const pre = g[0] !== undefined || g[2] !== undefined;
  const [hemisphere, sign, degrees, mark, minutes, seconds] = pre ? g.slice(0, 6) : [g[11], ...g.slice(6, 11)];
  return { hemisphere: hemisphere?.toUpperCase(), sign, degrees, degreeMark: mark !== undefined, minutes, seconds };
}

function normalizeMarks(s: string): string {
  return s
    .trim()
    .replace(/[º˚]/g, '°')
    .replace(/''/g, '"')
    .replace(/[′’‘´`]/g, "'")
    .replace(/[″“”]/g, '"');
}

// null: not coordinates (search it as text). ok:false: shaped like coordinates but impossible.
export function parseCoordinates(query: string): CoordinateParse {
  const m = normalizeMarks(query).match(PAIR);
  if (!m) return null;
  const a = component(m, 1);
  const b = component(m, 1 + GROUPS_PER_COMPONENT);
  const marked = [a, b].some((c) => c.degreeMark || c.minutes !== undefined || c.seconds !== undefined);
  const decimal = [a, b].some((c) => c.degrees.includes('.'));
  // Plain integer pairs ("9490 35", "100 N 200 W") are addresses, not coordinates.
  if (!marked && !decimal) return null;

  const values: number[] = [];
  for (const c of [a, b]) {
    const v = toDegrees(c);
    if (typeof v === 'string') return { ok: false, reason: v };
    values.push(v);
  }

  const axis = (c: Component) => (c.hemisphere === undefined ? undefined : 'NS'.includes(c.hemisphere) ? 'lat' : 'lon');
  const [axisA, axisB] = [axis(a), axis(b)];
  if (axisA && axisA === axisB) {
    return { ok: false, reason: `both coordinates are ${axisA === 'lat' ? 'latitudes (N/S)' : 'longitudes (E/W)'}` };
  }
  const latFirst = axisA ? axisA === 'lat' : axisB ? axisB === 'lon' : true;
  const [lat, lon] = latFirst ? values : [values[1], values[0]];

  if (Math.abs(lat) > 90) {
    const hint =
      !axisA && !axisB && Math.abs(lon) <= 90
        ? `; coordinates are read latitude first (ISO 6709): did you mean "${lon}, ${lat}"?`
        : '';
    return { ok: false, reason: `latitude ${lat} is out of range: it must be between -90 and 90${hint}` };
  }
  if (Math.abs(lon) > 180)
    return { ok: false, reason: `longitude ${lon} is out of range: it must be between -180 and 180` };
  return { ok: true, point: { lat, lon } };
}

function toDegrees(c: Component): number | string {
  const deg = Number(c.degrees);
  const min = c.minutes === undefined ? 0 : Number(c.minutes);
  const sec = c.seconds === undefined ? 0 : Number(c.seconds);
  if (min >= 60) return `minutes must be below 60 (got ${c.minutes})`;
  if (sec >= 60) return `seconds must be below 60 (got ${c.seconds})`;
  if ((c.minutes !== undefined || c.seconds !== undefined) && !Number.isInteger(deg)) {
    return `degrees must be whole when minutes or seconds follow (got ${c.degrees})`;
  }
  if (c.seconds !== undefined && c.minutes !== undefined && !Number.isInteger(min)) {
    return `minutes must be whole when seconds follow (got ${c.minutes})`;
  }
  if (c.sign && c.hemisphere)
    return `use either a sign or a hemisphere letter, not both (${c.sign}${c.degrees} ${c.hemisphere})`;
  const magnitude = deg + min / 60 + sec / 3600;
  const negative = c.sign === '-' || c.hemisphere === 'S' || c.hemisphere === 'W';
  return negative ? -magnitude : magnitude;
}
