import { buildTextQuery } from '../../src/search/query/text-query';
import { tokenize } from '../../src/search/query/tokenize';
import { hashString, seededRandom } from '../../src/common/deterministic-random';
import { buildCatalogue, destination, distanceM, FixtureRecord, pick, sample } from './relevance-catalogue';

// The queries to ask of the relevance catalogue (relevance-catalogue.ts). Every query's expected answer
// is derived from the catalogue: the record the query was made from, or the record nearest a point.
// Deterministic: the same queries every run.

// Countries, regions and towns by their other names (region-queries.ts), on a catalogue of their own.
export const REGION_CATEGORIES = [
  'country_name_en',
  'country_name_own',
  'country_alpha2',
  'country_alpha3',
  'region_name',
  'town_other_language',
] as const;
export const CATEGORIES = [
  'exact',
  'prefix',
  'typo',
  'accents',
  'abbreviations',
  'house_numbers',
  'word_order',
  'coordinates',
  'plus_codes',
  'location_codes',
  'garbage',
  'world',
  'qualified',
  'variant_abbreviations',
  'variant_umlauts',
  'variant_initials',
  'variant_white_space',
  'variant_typo_each_word',
  'corrected',
  ...REGION_CATEGORIES,
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface RelevanceQuery {
  category: Category;
  query: string;
  /** The record that should come first (top-1) or among the first five (top-5); null: nothing should match. */
  expected: string | null;
  /** How the query was made, for reading failures. */
  from: string;
  /** The first record's `match.kind` must be this too (`corrected`, with its corrections). */
  match?: string;
  /** The query as it should have been typed: the record it answers first is as right as `expected`. */
  rightSpelling?: string;
}

const QUERIES_PER_CATEGORY = 30;
// Typos vary most, so they get more queries.
const TYPO_QUERIES = 60;

// Records a text query matches, simulated the way the tsquery does it (every word or one of its
// equivalents; the last word as a prefix): used to keep prefix queries unambiguous.
function matches(query: string, records: FixtureRecord[], tokens: Map<string, Set<string>>): FixtureRecord[] {
  const q = buildTextQuery(query);
  if (!q) return [];
  const last = q.groups.length - 1;
  return records.filter((r) => {
    const t = tokens.get(r.id)!;
    return q.groups.every((g, i) =>
      g.some((w, j) => t.has(w) || (i === last && j === 0 && [...t].some((x) => x.startsWith(w)))),
    );
  });
}

// One edit: substitute, delete, insert or swap neighbours; never the same word back.
function typo(word: string, rand: () => number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (;;) {
    // Any letter, the first one less often (as in real typing).
    const i = rand() < 0.15 ? 0 : 1 + Math.floor(rand() * (word.length - 1));
    const kind = Math.floor(rand() * 4);
    let out = word;
    if (kind === 0) out = word.slice(0, i) + pick(rand, [...letters]) + word.slice(i + 1);
    else if (kind === 1) out = word.slice(0, i) + word.slice(i + 1);
    else if (kind === 2) out = word.slice(0, i) + pick(rand, [...letters]) + word.slice(i);
    else if (i < word.length - 1) out = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (out.toLowerCase() !== word.toLowerCase()) return out;
  }
}

function shuffle<T>(items: T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function formatDms(value: number, pos: string, neg: string): string {
  const abs = Math.abs(value);
  const d = Math.floor(abs);
  const mFloat = (abs - d) * 60;
  const m = Math.floor(mFloat);
  const s = (mFloat - m) * 60;
  return `${d}°${String(m).padStart(2, '0')}'${s.toFixed(2).padStart(5, '0')}"${value < 0 ? neg : pos}`;
}

export interface RelevanceFixture {
  records: FixtureRecord[];
  /** `alsoRight`: other records as right as `expected` (places of the same name and importance). */
  queries: Array<RelevanceQuery & { alsoRight?: string[] }>;
}

export function relevanceFixture(): RelevanceFixture {
  const { records, streets, cityRecords, codes } = buildCatalogue();
  const tokens = new Map(records.map((r) => [r.id, new Set(tokenize(r.address))]));
  const queries: RelevanceQuery[] = [];
  const add = (category: Category, query: string, expected: string | null, from: string) =>
    queries.push({ category, query, expected, from });
  const byId = new Map(records.map((r) => [r.id, r]));
  const streetRecords = records.filter((r) => streets.some((s) => [...s.ids.values()].includes(r.id)));
  // The record nearest a point; equal distances go to the smaller id, as the search orders them.
  const nearest = (p: { lat: number; lon: number }) => {
    let best = records[0];
    let bestDistance = Infinity;
    for (const r of records) {
      const d = distanceM(p, r);
      if (d < bestDistance || (d === bestDistance && r.id < best.id)) [best, bestDistance] = [r, d];
    }
    return best;
  };

  // exact: the address as stored.
  for (const r of sample([...streetRecords, ...cityRecords], QUERIES_PER_CATEGORY, (r) => `exact:${r.id}`))
    add('exact', r.address, r.id, r.address);

  // prefix: the address cut inside its last word, as short as still names one record.
  for (const r of sample(streetRecords, QUERIES_PER_CATEGORY * 2, (r) => `prefix:${r.id}`)) {
    if (queries.filter((q) => q.category === 'prefix').length >= QUERIES_PER_CATEGORY) break;
    const lastWord = r.address.match(/[\p{L}\p{N}]+$/u)![0];
    for (let keep = 2; keep < lastWord.length; keep++) {
      const q = r.address.slice(0, r.address.length - lastWord.length + keep);
      const found = matches(q, records, tokens);
      if (found.length === 1 && found[0].id === r.id) {
        add('prefix', q, r.id, r.address);
        break;
      }
    }
  }

  // typo: one or two typos in the words of street, number and city.
  for (const street of sample(streets, TYPO_QUERIES, (s) => `typo:${s.stored}${s.tail}`)) {
    const rand = seededRandom(hashString(`typo:${street.stored}${street.tail}`));
    const n = street.numbers[street.numbers.length - 1];
    // Two in three with the house number; the rest street and city only (top-5 then means the
    // record is among the street's few numbers).
    const withNumber = rand() < 2 / 3;
    const text = street.kind === 'us' ? `${n} ${street.stored} ${street.city}` : `${street.stored} ${n} ${street.city}`;
    const words = (withNumber ? text : text.replace(` ${n} `, ' ').replace(`${n} `, '')).split(' ');
    const candidates = words.map((w, i) => ({ w, i })).filter(({ w }) => /^\p{L}{4,}$/u.test(w));
    const typos = rand() < 0.5 ? 2 : 1;
    const chosen = shuffle(candidates, rand).slice(0, typos);
    for (const { w, i } of chosen) {
      let t = typo(w, rand);
      // Two typos but one long word to put them in: both go there.
      if (typos === 2 && chosen.length === 1 && w.length >= 6) {
        do t = typo(typo(w, rand), rand);
        while (t.toLowerCase() === w.toLowerCase());
      }
      words[i] = t;
    }
    add('typo', words.join(' '), street.ids.get(n)!, `${n} ${street.stored}${street.tail}`);
  }

  // accents: accented addresses typed without accents, ß as ss, in any case.
  const accentedRecords = records.filter((r) => /[^\p{ASCII}]/u.test(r.address) && !codes.some((c) => c.id === r.id));
  for (const [i, r] of sample(accentedRecords, QUERIES_PER_CATEGORY, (r) => `acc:${r.id}`).entries()) {
    const plain = r.address
      .replace(/ß/g, 'ss')
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '');
    add('accents', i % 3 === 0 ? plain.toUpperCase() : i % 3 === 1 ? plain.toLowerCase() : plain, r.id, r.address);
  }

  // abbreviations: the other form of every abbreviation in the street ("Ave" for "Avenue", "Straße" for "Str.").
  for (const street of sample(streets, QUERIES_PER_CATEGORY, (s) => `abbr:${s.stored}${s.tail}`)) {
    const n = street.numbers[0];
    const q = street.kind === 'us' ? `${n} ${street.swapped} ${street.city}` : `${street.swapped} ${n} ${street.city}`;
    add(
      'abbreviations',
      q,
      street.ids.get(n)!,
      `${street.kind === 'us' ? `${n} ${street.stored}` : `${street.stored} ${n}`}${street.tail}`,
    );
  }

  // house_numbers: "street number" with the number last (a prefix of longer numbers on the street).
  for (const street of sample(streets, QUERIES_PER_CATEGORY, (s) => `num:${s.stored}${s.tail}`)) {
    const n = street.numbers[hashString(street.stored) % 2];
    add(
      'house_numbers',
      `${street.city} ${street.stored} ${n}`,
      street.ids.get(n)!,
      `${street.stored} ${n}${street.tail}`,
    );
  }

  // word_order: the words of number, street and city shuffled.
  for (const street of sample(streets, QUERIES_PER_CATEGORY, (s) => `order:${s.stored}${s.tail}`)) {
    const rand = seededRandom(hashString(`order:${street.stored}${street.tail}`));
    const n = street.numbers[street.numbers.length - 1];
    const words = `${n} ${street.stored} ${street.city}`.split(' ');
    let shuffled = shuffle(words, rand);
    while (shuffled.join(' ') === words.join(' ')) shuffled = shuffle(words, rand);
    add('word_order', shuffled.join(' '), street.ids.get(n)!, `${street.stored} ${n}${street.tail}`);
  }

  // coordinates: a few metres from a record, in the usual notations; expected the nearest record.
  for (const [i, r] of sample(records, QUERIES_PER_CATEGORY, (r) => `coord:${r.id}`).entries()) {
    const rand = seededRandom(hashString(`coord:${r.id}`));
    const p = destination(r, rand() * 360, 1 + rand() * 3);
    const formats = [
      `${p.lat.toFixed(6)}, ${p.lon.toFixed(6)}`,
      `${p.lat.toFixed(6)} ${p.lon.toFixed(6)}`,
      `${p.lat.toFixed(6)},${p.lon.toFixed(6)}`,
      `${formatDms(p.lat, 'N', 'S')} ${formatDms(p.lon, 'E', 'W')}`,
    ];
    const exact = { lat: Number(p.lat.toFixed(6)), lon: Number(p.lon.toFixed(6)) };
    add('coordinates', formats[i % formats.length], nearest(exact).id, `${r.address} @ ${r.lat},${r.lon}`);
  }

  // plus_codes: the full code of a point near a record; expected the record nearest the code's centre.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OpenLocationCode } = require('open-location-code') as {
    OpenLocationCode: new () => {
      encode(lat: number, lon: number, length?: number): string;
      decode(code: string): { latitudeCenter: number; longitudeCenter: number };
    };
  };
  const olc = new OpenLocationCode();
  for (const [i, r] of sample(records, QUERIES_PER_CATEGORY, (r) => `olc:${r.id}`).entries()) {
    const code = olc.encode(r.lat, r.lon, i % 2 === 0 ? 10 : 11);
    const area = olc.decode(code);
    add(
      'plus_codes',
      i % 3 === 0 ? code.toLowerCase() : code,
      nearest({ lat: area.latitudeCenter, lon: area.longitudeCenter }).id,
      r.address,
    );
  }

  // location_codes: the stored code in other case, spacing and dashes.
  for (const [i, c] of sample(codes, QUERIES_PER_CATEGORY, (c) => `loc:${c.id}`).entries()) {
    const variants = [
      c.parts.join(' ').toLowerCase(),
      c.parts.join('').toLowerCase(),
      c.parts.join(' - '),
      c.address.toLowerCase(),
      c.address,
    ];
    add('location_codes', variants[i % variants.length], c.id, c.address);
  }

  // garbage: symbol soup, emoji, injection attempts, letters glued into symbols.
  const rand = seededRandom(hashString('garbage'));
  const symbols = [...'!@#$%^&*()_+=[]{};:"\\|,.<>/?`~\''];
  const soup = (n: number) => Array.from({ length: n }, () => pick(rand, symbols)).join('');
  const fixed = [
    '%#$@*&l;der#$!',
    '😀😀😀',
    '🏠 🚗 🌳',
    '👍',
    "' OR '1'='1",
    "'; DROP TABLE imagery; --",
    '1; DELETE FROM imagery',
    'UNION SELECT password FROM users',
    "admin'--",
    '<script>alert(1)</script>',
    '${jndi:ldap://x}',
    '../../etc/passwd',
    '((((',
    '\\\\\\',
    '%00',
    '**/**',
  ];
  for (const g of fixed) add('garbage', g, null, 'fixed');
  while (queries.filter((q) => q.category === 'garbage').length < QUERIES_PER_CATEGORY) {
    const letters = Array.from(
      { length: 1 + Math.floor(rand() * 2) },
      () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(rand() * 26)],
    ).join('');
    add(
      'garbage',
      `${soup(3 + Math.floor(rand() * 4))}${letters}${soup(3 + Math.floor(rand() * 4))}`,
      null,
      'generated',
    );
  }

  for (const q of queries)
    if (q.expected && !byId.has(q.expected)) throw new Error(`expected record missing for ${q.query}`);
  return { records, queries };
}
