import type { RawPlace } from '../place-validation';

// addr:interpolation ways (https://wiki.openstreetmap.org/wiki/Key:addr:interpolation): a line whose
// end nodes carry house numbers stands for the numbers between them, spread evenly along it; a node
// with a number inside the line splits it into pieces, each interpolated between its own ends. The
// numbered nodes are address nodes seen earlier (osmium writes every node before any way), found by
// their position. Only the numbers strictly between two ends are made (the ends are addresses
// already): `odd`/`even`/`all` or a step ("2"); `alphabetic` and numbers with letters are left out.
// The street is the ends' addr:street (they must agree), else the way's own, else none (the import
// then gives the numbers the nearest named street, as it does any address without one).
export const MAX_INTERPOLATED = 1000; // numbers made from one way at most
const STEPS: Readonly<Record<string, number>> = { odd: 2, even: 2, all: 1 };

/** The pieces of an interpolation line between its numbered nodes (`houseAt`: the address at a vertex). */
export function interpolationPieces(
  line: readonly Position[],
  houseAt: (position: Position) => InterpolationEnd | undefined,
): Array<{ line: Position[]; first: InterpolationEnd; last: InterpolationEnd }> {
  const out: Array<{ line: Position[]; first: InterpolationEnd; last: InterpolationEnd }> = [];
  let start: { index: number; house: InterpolationEnd } | undefined;
  for (const [index, position] of line.entries()) {
    const house = houseAt(position);
    if (!house || !/^\d{1,6}$/.test(house.housenumber)) continue;
    if (start) out.push({ line: line.slice(start.index, index + 1), first: start.house, last: house });
    start = { index, house };
  }
  return out;
}

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
  wayStreet?: string,
): Array<{ housenumber: string; place: RawPlace }> {
  const step = STEPS[interpolation] ?? (/^[1-9]\d{0,2}$/.test(interpolation) ? Number(interpolation) : null);
  if (step === null || line.length < 2 || !/^\d{1,6}$/.test(first.housenumber) || !/^\d{1,6}$/.test(last.housenumber))
    return [];
  if (first.street !== undefined && last.street !== undefined && first.street !== last.street) return [];
  const street = first.street ?? last.street ?? wayStreet;
  let [from, to] = [Number(first.housenumber), Number(last.housenumber)];
  const reversed = from > to;
  if (reversed) [from, to] = [to, from];
  if ((to - from) / step > MAX_INTERPOLATED) return [];
  // odd and even lines whose end has the other parity (a corner house) start at the next right one.
  const parity = interpolation === 'odd' ? 1 : interpolation === 'even' ? 0 : null;
  let n = from + step;
  if (parity !== null && (from + 1) % 2 === parity) n = from + 1;
  const measure = lengths(line);
  const total = measure[measure.length - 1];
  const out: Array<{ housenumber: string; place: RawPlace }> = [];
  for (; n < to; n += step) {
    const share = (reversed ? to - n : n - from) / (to - from);
    const [lon, lat] = along(line, measure, share * total);
    out.push({
      housenumber: String(n),
      place: {
        kind: 'address',
        housenumber: String(n),
        ...(street !== undefined && { street }),
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
