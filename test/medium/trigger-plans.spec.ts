import { Client } from 'pg';
import { prismaClient, resetImagery } from '../helpers/test-app';

// The update triggers of imagery join their transition tables (old_rows, new_rows) by id. Those joins
// must be planned for the rows an update changed, not kept from the connection's first update: a
// connection that first changes one row and then thousands (an import's batches, relinking) must not
// compare every old row with every new one. The plans are read with auto_explain, sent to this client.
const ROWS = 3000;

interface Plan {
  'Node Type': string;
  'Actual Loops'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: Plan[];
}
const nodes = (n: Plan): Plan[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

describe('imagery update triggers: transition-table joins planned per call', () => {
  const prisma = prismaClient();
  let client: Client;
  const plans: Array<{ text: string; plan: Plan }> = [];

  beforeAll(async () => {
    await resetImagery();
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, location, image_url, source)
      SELECT gen_random_uuid(), 'Street ' || g, date '2020-01-01' + g % 1000, g % 360,
             ST_SetSRID(ST_MakePoint(9.5 + g * 1e-5, 47.1), 4326), '/a.jpg', 'triggers'
      FROM generate_series(1, ${ROWS}) g`);
    client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    client.on('notice', (msg) => {
      const json = /plan:\s*(\{[\s\S]*\})\s*$/.exec(msg.message ?? '');
      if (!json) return;
      const parsed = JSON.parse(json[1]);
      plans.push({ text: parsed['Query Text'], plan: parsed.Plan });
    });
    for (const setting of [
      "LOAD 'auto_explain'",
      'SET auto_explain.log_min_duration = 0',
      'SET auto_explain.log_nested_statements = on',
      'SET auto_explain.log_analyze = on',
      "SET auto_explain.log_format = 'json'",
      'SET client_min_messages = log',
    ])
      await client.query(setting);
  });

  afterAll(async () => {
    await client?.end();
    await resetImagery();
    await prisma.$disconnect();
  });

  it('a large update after a small one on the same connection joins old and new rows without a nested loop', async () => {
    await client.query('BEGIN');
    try {
      await client.query(
        `UPDATE imagery SET address = address || ' a', heading = 1 WHERE id = (SELECT id FROM imagery ORDER BY id LIMIT 1)`,
      );
      plans.length = 0;
      const updated = await client.query(
        `UPDATE imagery SET address = address || ' b', heading = 2 WHERE source = 'triggers'`,
      );
      expect(updated.rowCount).toBe(ROWS);
    } finally {
      await client.query('ROLLBACK');
    }
    const joins = plans.filter((p) => /old_rows/.test(p.text) && /new_rows/.test(p.text));
    // The three update triggers: the vocabulary's counts, the ranked lists, the map's coverage.
    expect(joins.length).toBeGreaterThanOrEqual(3);
    for (const { text, plan } of joins) {
      const rescanned = nodes(plan).filter(
        (n) => n['Node Type'] === 'Named Tuplestore Scan' && (n['Actual Loops'] ?? 0) > 1,
      );
      expect({ text: text.trim().slice(0, 60), rescanned: rescanned.length }).toEqual({
        text: text.trim().slice(0, 60),
        rescanned: 0,
      });
    }
  });
});
