import { PrismaClient } from '@prisma/client';
import { allCountries, allRegions } from '../../src/places/regions';

// A generated gazetteer with imagery linked to it, in SQL (100,000 rows load in seconds), for query
// plan tests: the real countries and first-level regions, then localities, postcodes, streets,
// addresses and points of interest with names that collide as real ones do (a seventh of the
// localities share 20 famous names, the rest come from 4,096 syllable names), importance spread as
// population is, and imagery at the addresses, linked as the importer's linker links it.

// Names many localities share ("London", "Springfield"), as in a world gazetteer.
export const SHARED_NAMES = [
  'London',
  'Springfield',
  'San Francisco',
  'Paris',
  'Cambridge',
  'Córdoba',
  'Birmingham',
  'Sydney',
  'Richmond',
  'Franklin',
  'Clinton',
  'Georgetown',
  'Salem',
  'Madison',
  'Greenville',
  'Fairview',
  'Riverside',
  'Santa Cruz',
  'San José',
  'Victoria',
];
const SYLLABLES = [
  'ka',
  'ro',
  'lin',
  'ber',
  'gen',
  'wald',
  'ha',
  'mar',
  'to',
  'ries',
  'en',
  'dorf',
  'sel',
  'bach',
  'un',
  'ter',
];
const STREET_TYPES = [' Street', ' Road', ' Avenue', 'strasse', 'gasse', ' Lane'];

export interface GazetteerSize {
  localities: number;
  postcodes: number;
  streets: number;
  addresses: number;
  pois: number;
  imagery: number;
}

const list = (items: string[]) => `ARRAY[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')}]`;
// A three-syllable name ("Karolin", "Bergenwald") of an integer expression: 4,096 different names.
export function syllableName(n: string): string {
  const s = `(${list(SYLLABLES)})`;
  return `initcap(${s}[1 + (${n}) % 16] || ${s}[1 + ((${n}) / 16) % 16] || ${s}[1 + ((${n}) / 256) % 16])`;
}
// A deterministic number in [0, 1) from a key.
const unit = (key: string) => `(('x' || substr(md5(${key}), 1, 8))::bit(32)::bigint / 4294967296.0)`;
const id = (kind: string, n: string) => `md5('${kind}:' || (${n}))::uuid`;
const near = (p: string, key: string, degrees: number) =>
  `ST_SetSRID(ST_MakePoint(ST_X(${p}) + (${unit(`'x' || ${key}`)} - 0.5) * ${degrees}, ST_Y(${p}) + (${unit(`'y' || ${key}`)} - 0.5) * ${degrees}), 4326)`;

const COLUMNS = `id, kind, name, housenumber, street, postcode, locality, region, region_code, country_code, label, alt_names,
  location, importance, population, source, source_id`;

// Runs a bulk load with the tables' secondary indexes dropped, then builds them again from their own
// definitions (pg_get_indexdef): building an index once is several times faster than updating it row
// by row, the trigram and full-text GIN indexes above all. Primary keys stay (the load joins by id).
export async function withIndexesRebuilt(
  prisma: PrismaClient,
  tables: string[],
  load: () => Promise<void>,
): Promise<void> {
  const indexes = await prisma.$queryRawUnsafe<Array<{ name: string; def: string }>>(
    `SELECT c.relname::text AS name, pg_get_indexdef(c.oid) AS def
     FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relname = ANY($1::text[]) AND t.relnamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)`,
    tables,
  );
  for (const i of indexes) await prisma.$executeRawUnsafe(`DROP INDEX "${i.name}"`);
  try {
    await load();
  } finally {
    for (const i of indexes) await prisma.$executeRawUnsafe(i.def);
  }
}

// Countries and regions, then the rest, in that order (each kind joins the one above it).
export async function generateGazetteer(prisma: PrismaClient, size: GazetteerSize): Promise<void> {
  const countries = allCountries();
  const regions = allRegions();
  const run = (sql: string, ...values: unknown[]) => prisma.$executeRawUnsafe(sql, ...values);
  await run(
    `INSERT INTO places (${COLUMNS})
     SELECT ${id('country', 'c.n')}, 'country', c.name, NULL, NULL, NULL, NULL, NULL, NULL, c.code, c.name, c.code,
            ST_SetSRID(ST_MakePoint(-170 + 340 * ${unit("'c' || c.n")}, -55 + 125 * ${unit("'d' || c.n")}), 4326), 1, NULL, 'plans', 'country:' || c.n
     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS c(code, name, n)`,
    countries.map((c) => c.code),
    countries.map((c) => c.name),
  );
  await run(
    `INSERT INTO places (${COLUMNS})
     SELECT ${id('region', 'r.n')}, 'region', r.name, NULL, NULL, NULL, NULL, r.name, r.code, r.cc, r.name || ', ' || c.name,
            r.cc || ' | ' || c.name, ${near('c.location', 'r.n', 10)}, 0.8, NULL, 'plans', 'region:' || r.n
     FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS r(code, name, cc, n)
     JOIN places c ON c.kind = 'country' AND c.country_code = r.cc`,
    regions.map((r) => r.code),
    regions.map((r) => r.name),
    regions.map((r) => r.countryCode),
  );
  // Localities: population 5,000 to 5 million, most of them small; importance as the gazetteer gives it.
  await run(
    `INSERT INTO places (${COLUMNS})
     SELECT ${id('locality', 'g')}, 'locality', x.name, NULL, NULL, NULL, x.name, r.name, r.region_code, r.country_code,
            x.name || ', ' || r.label, r.alt_names, ${near('r.location', 'g', 6)},
            least(1, log(x.population + 1) / 7.5), x.population, 'plans', 'locality:' || g
     FROM generate_series(0, $1::int - 1) g
     JOIN places r ON r.id = md5('region:' || (1 + g % $2::int))::uuid
     CROSS JOIN LATERAL (SELECT
       CASE WHEN g % 7 = 0 THEN (${list(SHARED_NAMES)})[1 + (g / 7) % ${SHARED_NAMES.length}] ELSE ${syllableName('g * 31 + 11')} END AS name,
       floor(5000 * power(1000, power(${unit("'p' || g")}, 4)))::bigint AS population) x`,
    size.localities,
    regions.length,
  );
  // Postcodes, streets and points of interest of a locality; addresses of a street.
  const ofLocality = (
    kind: string,
    count: number,
    multiplier: number,
    name: string,
    label: string,
    importance: number,
    spread: number,
  ) =>
    run(
      `INSERT INTO places (${COLUMNS})
     SELECT ${id(kind, 'g')}, '${kind}', ${name}, NULL, NULL, NULL, l.name, l.region, l.region_code, l.country_code,
            ${label}, l.alt_names, ${near('l.location', 'g', spread)}, ${importance}, NULL, 'plans', '${kind}:' || g
     FROM generate_series(0, $1::int - 1) g
     JOIN places l ON l.id = md5('locality:' || ((g * ${multiplier}) % $2::int))::uuid`,
      count,
      size.localities,
    );
  await ofLocality(
    'postcode',
    size.postcodes,
    6,
    `(10000 + (g * 7919) % 90000)::text`,
    `(10000 + (g * 7919) % 90000) || ' ' || l.label`,
    0.2,
    0.05,
  );
  await ofLocality(
    'street',
    size.streets,
    7,
    `${syllableName('g * 13 + 1')} || (${list(STREET_TYPES)})[1 + g % 6]`,
    `${syllableName('g * 13 + 1')} || (${list(STREET_TYPES)})[1 + g % 6] || ', ' || l.label`,
    0.1,
    0.02,
  );
  await ofLocality(
    'poi',
    size.pois,
    11,
    `${syllableName('g * 5 + 3')} || ' ' || (ARRAY['Museum', 'Station', 'Church', 'Park', 'Library'])[1 + g % 5]`,
    `${syllableName('g * 5 + 3')} || ' ' || (ARRAY['Museum', 'Station', 'Church', 'Park', 'Library'])[1 + g % 5] || ', ' || l.label`,
    0.05,
    0.02,
  );
  await run(
    `INSERT INTO places (${COLUMNS})
     SELECT ${id('address', 'g')}, 'address', s.name || ' ' || x.hn, x.hn, s.name, x.postcode, s.locality, s.region, s.region_code, s.country_code,
            s.name || ' ' || x.hn || ', ' || x.postcode || ' ' || s.locality, s.alt_names, ${near('s.location', 'g', 0.003)},
            0.02, NULL, 'plans', 'address:' || g
     FROM generate_series(0, $1::int - 1) g
     JOIN places s ON s.id = md5('street:' || (g % $2::int))::uuid
     CROSS JOIN LATERAL (SELECT (1 + (g * 7) % 97 + 100 * (g / $2::int))::text AS hn, (10000 + (g % $2::int) * 3 % 90000)::text AS postcode) x`,
    size.addresses,
    size.streets,
  );
}

// Imagery a few metres from the addresses (about three records each): a third with the address
// recovered from the address or street place (address_origin 'address' / 'street'), the rest with
// their own; every 50th not yet linked to a locality (imported before the places were).
export async function generateLinkedImagery(prisma: PrismaClient, size: GazetteerSize): Promise<void> {
  await prisma.$executeRawUnsafe(
    `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location,
                          address_origin, place_id, locality_id, region_code, country_code)
     SELECT gen_random_uuid(), a.label, DATE '2010-01-01' + (k % 5000), (k * 7) % 360, k % 3 = 0, 'https://img.test/' || k || '.jpg',
            ${near('a.location', 'k', 0.0002)},
            x.origin, CASE x.origin WHEN 'address' THEN a.id WHEN 'street' THEN s.id END,
            CASE WHEN k % 50 <> 0 THEN l.id END, CASE WHEN k % 50 <> 0 THEN l.region_code END, CASE WHEN k % 50 <> 0 THEN l.country_code END
     FROM generate_series(1, $1::int) k
     JOIN places a ON a.id = md5('address:' || (k % $2::int))::uuid
     JOIN places s ON s.id = md5('street:' || ((k % $2::int) % $3::int))::uuid
     JOIN places l ON l.id = md5('locality:' || ((((k % $2::int) % $3::int) * 7) % $4::int))::uuid
     CROSS JOIN LATERAL (SELECT CASE WHEN k % 50 = 0 THEN 'own' WHEN k % 10 < 3 THEN 'address' WHEN k % 10 = 3 THEN 'street' ELSE 'own' END AS origin) x`,
    size.imagery,
    size.addresses,
    size.streets,
    size.localities,
  );
}
