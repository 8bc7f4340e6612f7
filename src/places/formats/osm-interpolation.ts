import type { RawPlace } from '../place-validation';

// addr:interpolation ways (https://wiki.openstreetmap.org/wiki/Key:addr:interpolation): a line whose
// two end nodes carry house numbers stands for the numbers between them, spread evenly along it. The
// end nodes are address nodes seen earlier (osmium writes every node before any way), found by their
// position. Only the numbers strictly between the ends are made (the ends are addresses already):
// `odd`/`even`/`all` or a step ("2"); `alphabetic` and numbers with letters are left out.
export const MAX_INTERPOLATED = 1000; // numbers made from one way at most
const STEPS: Readonly<Record<string, number>> = { odd: 2, even: 2, all: 1 };

export interface InterpolationEnd {
  housenumber: string;
  street?: string;
  postcode?: string;
  locality?: string;
}

type Position = [number, number];

// The addresses between the ends of an interpolation line, each at its share of the line's length.
export function interpolatedAddresses(
  interpolation: string,
  line: readonly Position[],
  first: InterpolationEnd,
  last: InterpolationEnd,
): Array<{ housenumber: string; place: RawPlace }> {
  const step = STEPS[interpolation] ?? (/^[1-9]\d{0,2}$/.test(interpolation) ? Number(interpolation) : null);
  if (step === null || line.length < 2 || !/^\d{1,6}$/.test(first.housenumber) || !/^\d{1,6}$/.test(last.housenumber))
    return [];
  if (first.street !== last.street || first.street === undefined) return [];
  let [from, to] = [Number(first.housenumber), Number(last.housenumber)];
  const reversed = from > to;
  if (reversed) [from, to] = [to, from];
  if ((to - from) / step > MAX_INTERPOLATED) return [];
  const measure = lengths(line);
  const total = measure[measure.length - 1];
  const out: Array<{ housenumber: string; place: RawPlace }> = [];
  for (let n = from + step; n < to; n += step) {
    const share = (reversed ? to - n : n - from) / (to - from);
    const [lon, lat] = along(line, measure, share * total);
    out.push({
      housenumber: String(n),
      place: {
        kind: 'address',
        housenumber: String(n),
        street: first.street,
        postcode: first.postcode === last.postcode ? first.postcode : undefined,
        locality: first.locality === last.locality ? first.locality : undefined,
        lon,
        lat,
      },
    });
  }
  return out;
}

// Cumulative lengths along the line (degrees of longitude shortened by the cosine of the latitude).
function lengths(line: readonly Position[]): number[] {
  const scale = Math.cos((line[0][1] * Math.PI) / 180);
  const out = [0];
  for (let i = 1; i < line.length; i++) {
    const dx = (line[i][0] - line[i - 1][0]) * scale;
    const dy = line[i][1] - line[i - 1][1];
    out.push(out[i - 1] + Math.hypot(dx, dy));
  }
  return out;
}

function along(line: readonly Position[], measure: number[], at: number): Position {
  for (let i = 1; i < line.length; i++) {
    if (measure[i] >= at) {
      const span = measure[i] - measure[i - 1];
      const t = span === 0 ? 0 : (at - measure[i - 1]) / span;
      return [line[i - 1][0] + t * (line[i][0] - line[i - 1][0]), line[i - 1][1] + t * (line[i][1] - line[i - 1][1])];
    }
  }
  return line[line.length - 1];
}
