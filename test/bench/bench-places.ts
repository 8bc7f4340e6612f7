import { Client } from 'pg';

// A synthetic gazetteer for the import benchmark, written with SQL on the benchmark's database:
// 50,000 localities spread over the world, and around the generated records (see generatedRecord:
// record i lies at lon -180 + (i * 0.0137 mod 360), lat -85 + (i * 0.0071 mod 170), ~1.5 km apart)
// an address place 10 m from records 4k and 4k+1, and a street place 30 m from records 4k+2, so
// records without an address recover from each rule (4k+3: the locality). Returns the places loaded.
export async function loadBenchPlaces(url: string, records: number): Promise<number> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined); // a dropped connection fails the query in flight instead
  await client.connect();
  try {
    await client.query(`
      INSERT INTO places (id, kind, name, label, region_code, country_code, location, importance, source, source_id)
      SELECT gen_random_uuid(), 'locality', 'Town ' || g, 'Town ' || g || ', Region ' || (g % 500) || ', Country ' || (g % 200),
             'C' || (g % 200) || '-' || (g % 500), 'C' || (g % 200),
             ST_SetSRID(ST_MakePoint(-180 + mod(g * 7.919, 360), -60 + mod(g * 3.137, 130)), 4326), 0.5, 'bench', 'l' || g
      FROM generate_series(1, 50000) g`);
    // 10 m (address) and 30 m (street) east: 0.0001 and 0.0003 degrees of longitude at the equator,
    // scaled by latitude.
    await client.query(
      `INSERT INTO places (id, kind, name, label, housenumber, street, location, importance, source, source_id)
       SELECT gen_random_uuid(), CASE WHEN i % 4 = 2 THEN 'street' ELSE 'address' END,
              CASE WHEN i % 4 = 2 THEN 'Bench Street ' || i ELSE 'Bench Street ' || i || ' ' || (i % 4) END,
              CASE WHEN i % 4 = 2 THEN 'Bench Street ' || i ELSE 'Bench Street ' || i || ' ' || (i % 4) || ', Benchtown' END,
              CASE WHEN i % 4 = 2 THEN NULL ELSE (i % 4)::text END, 'Bench Street ' || i,
              ST_SetSRID(ST_MakePoint(lon + (CASE WHEN i % 4 = 2 THEN 30 ELSE 10 END) / (111320 * cos(radians(lat))), lat), 4326),
              0.1, 'bench', 'a' || i
       FROM (SELECT i, -180 + mod(i * 0.0137, 360) AS lon, -85 + mod(i * 0.0071, 170) AS lat FROM generate_series(0, $1 - 1) i) r
       WHERE i % 4 <> 3`,
      [records],
    );
    await client.query('ANALYZE places');
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM places');
    return rows[0].n;
  } finally {
    await client.end();
  }
}
