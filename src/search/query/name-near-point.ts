import { METRES_PER_DEGREE } from '../../common/earth';
import { RADIUS_DEFAULT_M, RADIUS_MAX_M } from '../dto/search-filters.dto';
import { LatLon, parseCoordinates } from './coordinates';
import { leadingConnector, trailingConnector } from './connecting-words';
import { chunkWords } from './tokenize';

// A name beside coordinates ("Gampriner Seelein, N 47.1° E 9.5°", "Rhein 47.14,9.51",
// "47.14, 9.51 Rhein"): the name is searched near the point, within the distance the coordinates'
// precision leaves open (a point typed to one decimal is anywhere in a cell of a tenth of a degree).

export interface NameNearPoint {
  name: string;
  point: LatLon;
  radiusM: number;
}

// Each coordinate a decimal or marked number (a degree mark, minutes, a hemisphere letter): a house
// number and a postcode ("Landstrasse 12 9490") are no coordinates.
const COORDINATE = /\d+\.\d+|\d+\s*°|[NSEW]\s*\d|\d\s*[NSEW]\b/giu;
const LETTER = /\p{L}/u;

// The cell a coordinate typed this way leaves open, in degrees: its last number's decimals, in the
// unit of that number (degrees, minutes, seconds).
function precisionDeg(text: string): number {
  const numbers = text.match(/\d+(?:\.\d+)?/g) ?? [];
  const last = numbers[numbers.length - 1] ?? '0';
  const decimals = last.includes('.') ? last.length - last.indexOf('.') - 1 : 0;
  const unit = numbers.length >= 3 ? 1 / 3600 : numbers.length === 2 ? 1 / 60 : 1;
  return unit * 10 ** -decimals;
}

// A connecting word between the name and the point is neither ("pharmacy near 47.14,9.52" is the
// pharmacy near the point); a name that is only a connector stays as typed.
function withoutConnector(nameWords: string[], tailFirst: boolean): string {
  const folded = chunkWords(nameWords);
  const k = tailFirst ? trailingConnector(folded) : leadingConnector(folded);
  const kept = k === 0 || k === nameWords.length ? nameWords : tailFirst ? nameWords.slice(0, -k) : nameWords.slice(k);
  return kept.join(' ').replace(/^[\s,;]+|[\s,;]+$/gu, '');
}

function split(query: string, words: string[], tailFirst: boolean): NameNearPoint | null {
  for (let k = 1; k < words.length; k++) {
    const [nameWords, pointWords] = tailFirst
      ? [words.slice(0, k), words.slice(k)]
      : [words.slice(-k), words.slice(0, -k)];
    const pointText = pointWords.join(' ').replace(/^[\s,;]+|[\s,;]+$/gu, '');
    const name = withoutConnector(nameWords, tailFirst);
    if (!LETTER.test(name) || (pointText.match(COORDINATE) ?? []).length < 2) continue;
    const parsed = parseCoordinates(pointText);
    if (!parsed?.ok) continue;
    // The rounding leaves the point half a cell off on each axis at most: half the cell's diagonal
    // (at most 0.71 cells), and a little more.
    const cell = pointText
      .split(/[,;/]|\s(?=[NSEW+-]?\d)/iu)
      .filter((t) => /\d/.test(t))
      .reduce((a, t) => Math.max(a, precisionDeg(t)), 0);
    const radiusM = Math.min(RADIUS_MAX_M, Math.max(RADIUS_DEFAULT_M, cell * METRES_PER_DEGREE * 0.75));
    return { name, point: parsed.point, radiusM: Math.round(radiusM) };
  }
  return null;
}

/** The name and the point of a query that is a name beside coordinates (either first); null otherwise. */
export function nameNearPoint(query: string): NameNearPoint | null {
  const words = query.trim().split(/\s+/u);
  if (words.length < 2) return null;
  return split(query, words, true) ?? split(query, words, false);
}
