import { v5 as uuidv5 } from 'uuid';
import { regionEntry } from '../../src/places/regions';
import type { PlaceRecord } from '../../src/places/place-record';
import { foldText } from '../../src/search/text-fold/text-fold';
import { hashString } from '../../src/common/deterministic-random';
import type { FixtureRecord } from './relevance-catalogue';
import { distanceM, sample } from './relevance-catalogue';
import type { RelevanceQuery } from './relevance-fixture';

// Spelling variants of real towns of the world gazetteer, each town one imagery record at its point
// (its address the gazetteer's label, as the world category's):
// - variant_abbreviations: a town whose name holds a place-name word (Saint, Fort, Mount, Port, ...)
//   or its abbreviation, asked with the other form ("Fort Worth" as "Ft Worth", "St. Gallen" as
//   "Sankt Gallen");
// - variant_umlauts: a German, Austrian or Swiss town with ä, ö, ü or ß, asked with ae, oe, ue, ss;
// - variant_initials: a US town in a state of two words asked with the state's dotted initials
//   ("Albany, N.Y.");
// - variant_white_space: a town's label with its spaces made tabs, line breaks, no-break, em,
//   ideographic spaces or a zero width space after a comma;
// - variant_typo_each_word: a town of two words of five letters or more, two neighbouring letters
//   swapped in each.
// - corrected: a town of 100,000 people or more, its longest word misspelt as people do it (two
//   neighbouring letters swapped, one dropped or one doubled, away from the first letter, by the
//   name's hash), which must come back first and `corrected`, never `partial`; as right as the
//   town's record is what its name as written answers first (another record of the town).
// Only names that one town of the gazetteer has (case and accents aside), so the town is the answer;
// nor a variant that is another town's name. As right as the town's record: the suite's other records
// of the same town (`others`: the catalogue's "Saint-Étienne, France" for Saint-Étienne), those whose
// address starts with the town's name and that lie within SAME_TOWN_M of its point.
const PER_CATEGORY = 30;
const NAMESPACE = '3c9e7f10-5a2b-4d8e-9c61-0b7a2e4f9d13';
const SAME_TOWN_M = 10_000;

// [long, short]: the place-name words asked here, as towns write them.
const WORD_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['Saint', 'St.'],
  ['Sainte', 'Ste.'],
  ['Sankt', 'St.'],
  ['Fort', 'Ft.'],
  ['Mount', 'Mt.'],
  ['Mountain', 'Mtn'],
  ['Port', 'Pt.'],
  ['Point', 'Pt.'],
  ['North', 'N.'],
  ['South', 'S.'],
  ['East', 'E.'],
  ['West', 'W.'],
];
const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss' };
const WHITE_SPACE = ['\t', '\n', '\u00a0', '\u2003', '\u3000', '\u202f', '\r\n'];

export interface VariantFixture {
  places: PlaceRecord[];
  records: FixtureRecord[];
  queries: Array<RelevanceQuery & { alsoRight?: string[] }>;
}

const key = (name: string) =>
  foldText(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

// The name with one place-name word in its other form; null when it holds none. The long form
// becomes the short ("Saint-Louis" -> "St.-Louis"); a short form ("St. Gallen", "Mt Isa") the long
// one of its pairs that the name's country writes (Sankt in German-speaking countries).
function swapped(p: PlaceRecord): string | null {
  for (const [long, short] of WORD_PAIRS) {
    const longWord = new RegExp(`(^|[\\s-])${long}(?=[\\s-])`, 'u');
    if (longWord.test(p.name)) return p.name.replace(longWord, `$1${short}`);
  }
  const german = ['DE', 'AT', 'CH', 'LI'].includes(p.countryCode ?? '');
  for (const [long, short] of WORD_PAIRS) {
    if (long === 'Sankt' ? !german : long === 'Saint' && german) continue;
    const shortWord = new RegExp(`(^|[\\s-])${short.replace('.', '')}\\.?(?=[\\s-])`, 'u');
    if (shortWord.test(p.name)) return p.name.replace(shortWord, `$1${long}`);
  }
  return null;
}

// One letter of the longest word (five letters or more) swapped with the next, dropped or doubled.
function misspeltAsTyped(name: string, seed: string): string | null {
  const words = name.split(' ');
  const longest = words.reduce((a, b) => ([...b].length > [...a].length ? b : a));
  const letters = [...longest];
  if (letters.length < 5 || !/^\p{L}+$/u.test(longest)) return null;
  const h = hashString(seed);
  const i = 1 + (h % (letters.length - 2));
  const rule = Math.floor(h / 7) % 3;
  if (rule === 0 && letters[i] === letters[i + 1]) return null;
  if (rule === 0) [letters[i], letters[i + 1]] = [letters[i + 1], letters[i]];
  else if (rule === 1) letters.splice(i, 1);
  else letters.splice(i, 0, letters[i]);
  return words.map((w) => (w === longest ? letters.join('') : w)).join(' ');
}

function swapMiddle(word: string): string | null {
  const letters = [...word];
  const i = Math.floor(letters.length / 2);
  if (letters[i - 1] === letters[i]) return null;
  [letters[i - 1], letters[i]] = [letters[i], letters[i - 1]];
  return letters.join('');
}

export function variantFixture(
  localities: readonly PlaceRecord[],
  taken: ReadonlySet<string>,
  others: readonly FixtureRecord[] = [],
): VariantFixture {
  const byKey = new Map<string, PlaceRecord[]>();
  for (const p of localities) byKey.set(key(p.name), [...(byKey.get(key(p.name)) ?? []), p]);
  const unique = localities.filter((p) => byKey.get(key(p.name))!.length === 1 && !taken.has(p.id));
  const isOtherTown = (text: string) => byKey.has(key(text));
  const made: Array<{ category: RelevanceQuery['category']; query: string; place: PlaceRecord }> = [];
  const pickFor = (
    category: RelevanceQuery['category'],
    candidates: PlaceRecord[],
    query: (p: PlaceRecord) => string | null,
    count = PER_CATEGORY,
  ) => {
    const withQuery = candidates.flatMap((p) => {
      const q = query(p);
      return q ? [{ category, query: q, place: p }] : [];
    });
    made.push(...sample(withQuery, count, (m) => `${category}:${m.place.id}`));
  };

  pickFor('variant_abbreviations', unique, (p) => {
    const q = swapped(p);
    return q && !isOtherTown(q) ? q : null;
  });
  pickFor(
    'variant_umlauts',
    unique.filter((p) => ['DE', 'AT', 'CH'].includes(p.countryCode ?? '') && /[äöüÄÖÜß]/u.test(p.name)),
    (p) => {
      const q = p.name.replace(/[äöüÄÖÜß]/gu, (c) => UMLAUTS[c]);
      return isOtherTown(q) ? null : q;
    },
  );
  const inState = new Map<string, number>();
  for (const p of localities)
    if (p.regionCode)
      inState.set(`${key(p.name)}|${p.regionCode}`, 1 + (inState.get(`${key(p.name)}|${p.regionCode}`) ?? 0));
  pickFor(
    'variant_initials',
    localities.filter((p) => p.countryCode === 'US' && p.regionCode && !taken.has(p.id)),
    (p) => {
      const state = regionEntry(p.regionCode!);
      if (!state || inState.get(`${key(p.name)}|${p.regionCode}`) !== 1 || !/^\w+ \w+$/u.test(state.name)) return null;
      if ((p.population ?? 0) < 20_000) return null;
      return `${p.name}, ${state.name
        .split(' ')
        .map((w) => `${w[0]}.`)
        .join('')}`;
    },
  );
  pickFor('variant_white_space', unique, (p) => {
    if (!/ /u.test(p.label) || (p.population ?? 0) < 50_000) return null;
    const h = hashString(`ws:${p.id}`);
    const space = WHITE_SPACE[h % WHITE_SPACE.length];
    return h % 3 === 0 ? p.label.replace(/, /gu, ',\u200b') : p.label.replace(/ /gu, space);
  });
  pickFor('variant_typo_each_word', unique, (p) => {
    const words = p.name.split(' ');
    if (words.length !== 2 || !words.every((w) => /^\p{L}{5,}$/u.test(w))) return null;
    const typed = words.map(swapMiddle);
    if (typed.some((w) => w === null)) return null;
    const q = typed.join(' ');
    return isOtherTown(q) ? null : q;
  });

  pickFor(
    'corrected',
    unique.filter((p) => (p.population ?? 0) >= 100_000),
    (p) => {
      const q = misspeltAsTyped(p.name, `corrected:${p.id}`);
      return q && key(q) !== key(p.name) && !isOtherTown(q) ? q : null;
    },
    2 * PER_CATEGORY,
  );

  const places = [...new Map(made.map((m) => [m.place.id, m.place])).values()];
  const recordOf = new Map(places.map((p) => [p.id, uuidv5(p.id, NAMESPACE)]));
  const records = places.map((p) => ({ id: recordOf.get(p.id)!, address: p.label, lat: p.lat, lon: p.lon }));
  const sameTown = (p: PlaceRecord) =>
    others
      .filter((r) => key(r.address.split(',')[0]) === key(p.name) && distanceM(r, p) <= SAME_TOWN_M)
      .map((r) => r.id);
  const queries = made.map((m) => ({
    category: m.category,
    query: m.query,
    expected: recordOf.get(m.place.id)!,
    alsoRight: sameTown(m.place),
    from: m.place.label,
    ...(m.category === 'corrected' && { match: 'corrected', rightSpelling: m.place.name }),
  }));
  return { places, records, queries };
}
