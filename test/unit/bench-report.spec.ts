import { failedLoad } from '../bench/bench-cells';
import type { LoadResult } from '../bench/bench-load';
import { Cell, evaluateTargets, markdown, tableRows } from '../bench/bench-report';

const load = (rps: number, p99: number): LoadResult => ({
  serverCpuUs: null,
  requests: rps,
  ok: rps,
  rps,
  p50: p99 / 2,
  p95: p99,
  p99,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  seconds: 1,
});

describe('bench report', () => {
  const cells: Cell[] = [
    { cls: 'exact', connections: 1, server: 'ours', ...load(100, 10) },
    { cls: 'dense_bbox', connections: 1, server: 'ours', ...load(50, 25) },
    { cls: 'exact', connections: 16, server: 'ours', ...load(200, 50) },
    { cls: 'dense_bbox', connections: 16, server: 'ours', ...load(120, 80) },
    { cls: 'deep_coordinates', connections: 16, server: 'ours', ...failedLoad('naive server exited') },
  ];

  it("holds the dense classes to 2x exact's p99 and half its throughput, on the dense set only", () => {
    const dense = evaluateTargets(cells, [1, 16], 100, 1_000_000, 20_000, 'dense');
    const named = (name: string) => dense.find((t) => t.name === name);
    expect(named("dense_bbox p99 of exact's @1")).toMatchObject({ actual: 250, goal: 200, pass: false });
    expect(named("dense_bbox req/s of exact's @16")).toMatchObject({ actual: 60, goal: 50, pass: true });
    expect(named("deep_coordinates req/s of exact's @16")).toMatchObject({ pass: false, by: 'no 2xx responses' });
    const sparse = evaluateTargets(cells, [1, 16], 100, 1_000_000, 20_000, 'sparse');
    expect(sparse.filter((t) => t.name.includes("of exact's @1"))).toEqual([]);
  });

  it('marks a failed run in its row and lists why', () => {
    const row = tableRows(cells).find((r) => r[0] === 'deep_coordinates')!;
    expect(row[7]).toBe('0 (run failed)');
    const text = markdown({
      startedAt: 'a',
      finishedAt: 'b',
      options: {
        records: 10,
        seed: 8,
        dataset: 'dense',
        duration: 1,
        connections: [1, 16],
        poolSize: 10,
        bodiesPerClass: 1,
        oursLogLevel: 'info',
      },
      environment: { postgres: '15', postgis: '3', settings: {}, node: 'v20', cpus: 2, cpuModel: 'x' },
      loadAverageBefore: [1, 1, 1],
      loadAverageAfter: [1, 1, 1],
      dataset: { records: 10, seed: 8, loaded: false, importSeconds: 1, importRate: 10, importedAt: 'c' },
      bodies: {},
      bodyTexts: {},
      checks: {},
      oursRss: { peakRssMb: 100, hwmMb: 100 },
      cells,
      targets: [],
    });
    expect(text).toContain('## Failed runs\n\n- deep_coordinates @16 ours: naive server exited');
    expect(text).toContain('npm run bench -- --dataset dense --records 10');
  });
});
