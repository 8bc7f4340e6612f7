import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoFeatures } from '../../src/seed/demo-dataset';

const ROOT = join(__dirname, '..', '..');

describe('demo dataset', () => {
  let records: Array<{ id: string; address: string; coordinates: [number, number] }>;

  beforeAll(async () => {
    records = [];
    for await (const { feature } of demoFeatures()) {
      const f = feature as { id: string; properties: { address: string }; geometry: { coordinates: [number, number] } };
      records.push({ id: f.id, address: f.properties.address, coordinates: f.geometry.coordinates });
    }
  });

  it('keeps its records and their ids (re-seeding updates them in place)', () => {
    expect(records).toHaveLength(66_229);
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    // uuidv5 of "zip:62701" and "city:2867714" in the demo namespace, as before addresses named regions.
    expect(records.find((r) => r.id === 'da0352f1-b868-5a3b-8d15-bf1bdffef878')?.address).toBe(
      'Springfield, IL 62701, United States',
    );
    expect(records.find((r) => r.id === '88b6086c-ee6e-56a1-8419-df45f4726786')?.address).toBe(
      'Munich, Bavaria, Germany',
    );
  });

  // A count of demo records the README or a docs page states (a figure near the seed's, written with
  // a thousands separator, followed by "records" on a line about the demo) is the seed's own.
  it('is the count of demo records every page states', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const near = (n: number) => Math.abs(n - records.length) < records.length / 10;
    const stated: Array<{ page: string; figure: string }> = [];
    for (const page of pages) {
      for (const line of readFileSync(join(ROOT, page), 'utf8').split('\n')) {
        if (!/demo/i.test(line)) continue;
        for (const [, figure] of line.matchAll(/\b(\d{1,3}(?:,\d{3})+) (?:demo )?records\b/g)) {
          if (near(Number(figure.replace(/,/g, '')))) stated.push({ page, figure });
        }
      }
    }
    expect(stated.length).toBeGreaterThanOrEqual(5); // the README, data.md, operations-docker.md, ...
    const seed = records.length.toLocaleString('en-US');
    expect(stated.filter((s) => s.figure !== seed)).toEqual([]);
  });

  it('gives no two records at different places the same address', () => {
    const at = new Map<string, string>();
    const clashes: string[] = [];
    for (const r of records) {
      const where = r.coordinates.join(',');
      const seen = at.get(r.address);
      if (seen !== undefined && seen !== where) clashes.push(`${r.address}: ${seen} and ${where}`);
      at.set(r.address, where);
    }
    expect(clashes).toEqual([]);
    // City addresses name the region: "Springfield, Missouri, United States", not "Springfield, United States".
    expect(records.filter((r) => r.address === 'Springfield, United States')).toEqual([]);
    expect(records.map((r) => r.address)).toContain('Springfield, Missouri, United States');
  });

  it('has no military APO/FPO/DPO ZIP codes: they are post offices, not places, and sat on real cities', () => {
    const military = records.filter((r) => /^(Apo|Fpo|Dpo), |, (AA|AE|AP) \d{5}, United States$/.test(r.address));
    expect(military.map((r) => r.address).slice(0, 5)).toEqual([]);
    expect(records.filter((r) => r.coordinates[0] === 0 && r.coordinates[1] === 0)).toEqual([]);
    // Central London (51.5074, -0.1278) once answered "Fpo, AE 09499, United States" first.
    expect(records.map((r) => r.address)).not.toContain('Fpo, AE 09499, United States');
  });
});
