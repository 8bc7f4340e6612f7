import { Prisma, PrismaClient } from '@prisma/client';
import { interpretQuery } from '../../src/search/query/query-interpretation';
import { planSearch, SearchPlan } from '../../src/search/planning/search-planner';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';

// EXPLAIN for the plan tests, of exactly the statement a repository sends, and the catalogue the
// search plans are checked on.

export async function explain(prisma: PrismaClient, sql: Prisma.Sql): Promise<string> {
  const rows = await prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN ${sql.text}`, ...sql.values);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

export interface PlanNode {
  type: string;
  /** The index or table the node reads, '' for nodes that read neither. */
  on: string;
  /** Rows the node produced per loop (a bitmap index scan lists matching row ids, not rows). */
  rows: number;
  loops: number;
  executed: boolean;
  /** The node types above it, its parent first. */
  above: string[];
}

/** Every node of an EXPLAIN (ANALYZE, FORMAT JSON) plan, in plan order: the statement runs. */
export async function explainAnalyzed(prisma: PrismaClient, sql: Prisma.Sql): Promise<PlanNode[]> {
  const [row] = await prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': any }>>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`,
    ...sql.values,
  );
  const out: PlanNode[] = [];
  const walk = (n: any, above: string[] = []) => {
    out.push({
      type: n['Node Type'],
      on: n['Index Name'] ?? n['Relation Name'] ?? '',
      rows: n['Actual Rows'],
      loops: n['Actual Loops'],
      executed: n['Actual Loops'] > 0,
      above,
    });
    for (const child of n.Plans ?? []) walk(child, [n['Node Type'], ...above]);
  };
  walk(row['QUERY PLAN'][0].Plan);
  return out;
}

// `rows` records on a 0.2 x 0.2 degree grid around Vaduz (every 100th address a location code), and a
// vocabulary of `rows` distinct letter-only words, as a large catalogue would have them; analysed.
// Enough that the planner prefers an index whenever one fits.
export async function seedPlanCatalogue(prisma: PrismaClient, rows: number): Promise<void> {
  await prisma.$executeRawUnsafe(`
    INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
    SELECT gen_random_uuid(),
           CASE WHEN g % 100 = 0 THEN 'LI-' || (9000 + g % 997) || '-' || g ELSE
           (ARRAY['Herrengasse','Landstrasse','Kirchstrasse','Bahnhofstrasse','Poststrasse','Feldweg','Im Ganser','Zollstrasse'])[1 + g % 8]
             || ' ' || (g % 500) || ', ' || (9000 + g % 997) || ' '
             || (ARRAY['Vaduz','Schaan','Balzers','Triesen','Eschen','Mauren','Ruggell','Gamprin','Planken','Nendeln'])[1 + (g / 8) % 10]
             || ' ' || substr(md5(g::text), 1, 8) END,
           DATE '2010-01-01' + (g % 5000), (g * 7) % 360, g % 3 = 0, 'https://img.test/' || g || '.jpg',
           ST_SetSRID(ST_MakePoint(9.4 + (g % 1000) / 5000.0, 47.0 + (g / 1000) / 500.0), 4326)
    FROM generate_series(1, ${rows}) g`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO imagery_words (word, docs)
    SELECT translate(substr(md5(g::text), 1, 10), '0123456789', 'ghijklmnop'), 1 + g % 50 FROM generate_series(1, ${rows}) g
    ON CONFLICT DO NOTHING`);
  await prisma.$executeRawUnsafe('ANALYZE imagery');
  await prisma.$executeRawUnsafe('ANALYZE imagery_words');
}

/** The plan the search service makes of a request body, for building the statements it sends. */
export function searchPlan(body: Partial<SearchRequestDto>): SearchPlan {
  const request = Object.assign(new SearchRequestDto(), body);
  return planSearch(request, request.query === undefined ? null : interpretQuery(request.query, request.near)).plan;
}

/**
 * `records` records uniform in a disc of `spreadM` metres around `centre` (a degree of latitude is
 * 111.32 km), addresses of a few streets: a dense block's imagery, as real sequences capture it
 * (an image every few metres along every street). For the plan tests and test/bench/dense-count.
 */
export function denseBlockSql(records: number, centre: { lat: number; lon: number }, spreadM: number) {
  return {
    text: `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(), (ARRAY['Herrengasse','Aeulestrasse','Staedtle','Kirchstrasse'])[1 + g % 4] || ' ' || (g % 90),
             DATE '2015-01-01' + g % 3000, (g * 7) % 360, g % 5 = 0, 'https://img.test/d' || g || '.jpg',
             ST_SetSRID(ST_MakePoint($2 + r * cos(a) / (111320 * cos(radians($3))), $3 + r * sin(a) / 111320), 4326)
      FROM (SELECT g, $4 * sqrt(random()) AS r, 2 * pi() * random() AS a FROM generate_series(1, $1::int) g) p`,
    values: [records, centre.lon, centre.lat, spreadM],
  };
}
