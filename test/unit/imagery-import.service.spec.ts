import { FeatureItem, ImageryRecord } from '../../src/imagery/imagery-feature';
import { ImageryImportService, ImportOptions } from '../../src/imagery/imagery-import.service';
import { BatchResult, ImageryRepository, ImportSessionOptions } from '../../src/imagery/imagery.repository';
import { MapDataRepository } from '../../src/map-data/map-data.repository';
import { RankedWordListsRepository } from '../../src/search-index/ranked-word-lists.repository';

const id = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const feature = (i: number, props: Record<string, unknown> = {}) => ({
  type: 'Feature',
  id: id(i),
  geometry: { type: 'Point', coordinates: [9.5, 47.1] },
  properties: { address: `Street ${i}`, captured_at: '2020-01-02', heading: 10, image_url: '/a.jpg', ...props },
});

// Records every batch; each one "inserts" everything it is given.
class FakeRepository {
  options?: ImportSessionOptions;
  batches: ImageryRecord[][] = [];
  deleteCalls = 0;
  analyzeCalls = 0;
  /** Ranked-list refreshes (the service's second repository, faked here too). */
  refreshCalls = 0;
  unchanged = false;
  closed = false;
  failOnBatch?: number;
  inFlight = 0;
  maxInFlight = 0;
  /** Set: the ranked-list refresh fails with this message. */
  refreshFails?: string;
  async refreshOrWhyNot() {
    this.refreshCalls++;
    return this.refreshFails;
  }
  coverageRefreshes = 0;
  async refreshCoverage() {
    this.coverageRefreshes++;
    return { rebuilt: false, cells: 0 };
  }
  async openImportSession(options: ImportSessionOptions) {
    this.options = options;
    return {
      connections: options.connections ?? 1,
      writeBatch: async (records: ImageryRecord[]): Promise<BatchResult> => {
        this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
        // Uneven write times (batches starting at a heading divisible by 8 are slow), so parallel
        // batches finish out of order.
        await new Promise((r) => setTimeout(r, (records[0]?.heading ?? 0) % 8 === 0 ? 8 : 1));
        this.inFlight--;
        if (this.batches.length + 1 === this.failOnBatch) throw new Error('connection lost');
        this.batches.push(records);
        const counts = this.unchanged
          ? { inserted: 0, updated: 0, unchanged: records.length }
          : { inserted: records.length, updated: 0, unchanged: 0 };
        return { ...counts, unrecoverable: [] };
      },
      deleteMissing: async () => {
        this.deleteCalls++;
        return 7;
      },
      analyze: async () => {
        this.analyzeCalls++;
      },
      // A first load's end is tested on a real database (test/medium/imagery-first-load.spec.ts).
      isFirstLoad: false,
      endFirstLoad: async () => undefined,
      close: async () => {
        this.closed = true;
      },
    };
  }
}

async function* items(list: Array<FeatureItem | Error>): AsyncGenerator<FeatureItem> {
  for (const item of list) {
    if (item instanceof Error) throw item;
    yield item;
  }
}

const features = (n: number, from = 0): FeatureItem[] =>
  Array.from({ length: n }, (_, i) => ({ position: from + i + 1, feature: feature(from + i) }));

function run(list: Array<FeatureItem | Error>, options: ImportOptions = {}) {
  const repo = new FakeRepository();
  const service = new ImageryImportService(
    repo as unknown as ImageryRepository,
    repo as unknown as RankedWordListsRepository,
    repo as unknown as MapDataRepository,
  );
  return { repo, result: () => service.importFeatures(items(list), options) };
}

describe('ImageryImportService', () => {
  it('writes valid records in batches and counts everything', async () => {
    const bad = { position: 4, feature: feature(99, { heading: 400 }) };
    const malformed = { position: 5, rejection: { field: '(record)', reason: 'malformed JSON' } };
    const { repo, result } = run([...features(3), bad, malformed, ...features(4, 3)], { batchSize: 3, source: 's' });
    const summary = await result();
    expect(repo.batches.map((b) => b.length)).toEqual([3, 3, 1]);
    expect(summary).toMatchObject({ read: 9, inserted: 7, rejected: 2, outcome: 'complete', deleted: 0 });
    expect(summary.rejections).toEqual([
      { position: 4, field: 'heading', reason: 'must be at least 0 and less than 360' },
      { position: 5, field: '(record)', reason: 'malformed JSON' },
    ]);
    expect(repo.options).toEqual({ source: 's', dryRun: false, trackSeen: false, connections: 2, firstLoad: true });
    expect(repo.closed).toBe(true);
  });

  it('refreshes the statistics and ranked word lists search relies on after a change, and only then', async () => {
    const changed = run(features(3));
    await changed.result();
    expect(changed.repo.analyzeCalls).toBe(1);
    expect(changed.repo.refreshCalls).toBe(1);
    expect(changed.repo.coverageRefreshes).toBe(1);
    const same = run(features(3));
    same.repo.unchanged = true;
    await same.result();
    expect(same.repo.analyzeCalls).toBe(0);
    expect(same.repo.refreshCalls).toBe(0);
    expect(same.repo.coverageRefreshes).toBe(0);
  });

  it('reports a failed ranked-list refresh and still returns the import it finished', async () => {
    const run1 = run(features(3));
    run1.repo.refreshFails = 'connection refused';
    expect(await run1.result()).toMatchObject({ inserted: 3, listsNotRefreshed: 'connection refused' });
  });

  it('validates flat (CSV) records with the same rules', async () => {
    const ok = {
      position: 2,
      record: { address: 'A', captured_at: '2020-01-02', heading: 1, image_url: '/a.jpg', lon: 1, lat: 2 },
    };
    const bad = {
      position: 3,
      record: { address: 'A', captured_at: '2021-02-30', heading: 1, image_url: '/a.jpg', lon: 1, lat: 2 },
    };
    const { result } = run([ok, bad]);
    expect((await result()).rejections).toEqual([
      { position: 3, field: 'captured_at', reason: 'is not a valid ISO 8601 date or date-time: 2021-02-30' },
    ]);
  });

  it('keeps the last copy of an id repeated within a batch', async () => {
    const { repo, result } = run([
      { position: 1, feature: feature(1, { heading: 1 }) },
      { position: 2, feature: feature(1, { heading: 2 }) },
    ]);
    expect(await result()).toMatchObject({ read: 2, inserted: 1, unchanged: 1 });
    expect(repo.batches[0].map((r) => r.heading)).toEqual([2]);
  });

  it('writes batches on parallel connections', async () => {
    const { repo, result } = run(features(40), { batchSize: 4, connections: 3 });
    expect(await result()).toMatchObject({ read: 40, inserted: 40 });
    expect(repo.maxInFlight).toBe(3);
  });

  it('lets a later copy of a record win even when the earlier batch is slower', async () => {
    const list: FeatureItem[] = [];
    for (let i = 0; i < 120; i++) list.push({ position: i + 1, feature: feature(i % 6, { heading: i }) });
    const { repo, result } = run(list, { batchSize: 4, connections: 3 });
    await result();
    // Applying the batches in the order they finished leaves, for each id, its last copy in the input.
    const final = new Map<string, number | null>();
    for (const batch of repo.batches) for (const r of batch) final.set(r.id, r.heading);
    for (let j = 0; j < 6; j++) expect(final.get(id(j))).toBe(114 + j);
  });

  it('stops reading when aborted, writes what it has read, and never deletes', async () => {
    const controller = new AbortController();
    const list = features(10);
    async function* slow(): AsyncGenerator<FeatureItem> {
      for (const [i, item] of list.entries()) {
        if (i === 6) {
          controller.abort(); // Ctrl-C while the 7th record is being read
          await new Promise((r) => setTimeout(r, 5));
        }
        yield item;
      }
    }
    const repo = new FakeRepository();
    const summary = await new ImageryImportService(
      repo as unknown as ImageryRepository,
      repo as unknown as RankedWordListsRepository,
      repo as unknown as MapDataRepository,
    ).importFeatures(slow(), {
      batchSize: 2,
      source: 's',
      deleteMissing: true,
      signal: controller.signal,
    });
    expect(summary).toMatchObject({
      outcome: 'interrupted',
      read: 6,
      inserted: 6,
      deleted: 0,
      deletionSkipped: 'the import was interrupted',
    });
    expect(repo.batches.flat().length).toBe(6);
    expect(repo.deleteCalls).toBe(0);
  });

  it('stops at once when aborted while the input is idle (a quiet standard input)', async () => {
    const controller = new AbortController();
    async function* stalls(): AsyncGenerator<FeatureItem> {
      yield* features(3);
      setTimeout(() => controller.abort(), 20);
      await new Promise(() => undefined); // no more data, ever
    }
    const repo = new FakeRepository();
    const summary = await new ImageryImportService(
      repo as unknown as ImageryRepository,
      repo as unknown as RankedWordListsRepository,
      repo as unknown as MapDataRepository,
    ).importFeatures(stalls(), {
      signal: controller.signal,
    });
    expect(summary).toMatchObject({ outcome: 'interrupted', read: 3, inserted: 3 });
    expect(repo.closed).toBe(true);
  });

  it('ends with an input error (not a throw) when the input breaks off, and never deletes', async () => {
    const { repo, result } = run([...features(3), new Error('unexpected end of file')], {
      batchSize: 2,
      source: 's',
      deleteMissing: true,
    });
    const summary = await result();
    expect(summary).toMatchObject({
      outcome: 'input-error',
      inputError: 'unexpected end of file',
      inserted: 3,
      deletionSkipped: 'the input could not be read to its end',
    });
    expect(repo.deleteCalls).toBe(0);
  });

  it.each([
    [
      'too many rejections',
      [...features(2), { position: 9, rejection: { field: '(record)', reason: 'x' } }],
      0,
      '1 records were rejected (more than --max-rejects 0)',
    ],
    ['no valid records', [], 0, 'the input held no valid records'],
  ])('skips --delete-missing after %s', async (_name, list, maxRejects, reason) => {
    const { repo, result } = run(list as FeatureItem[], { source: 's', deleteMissing: true, maxRejects });
    expect(await result()).toMatchObject({ deleted: 0, deletionSkipped: reason });
    expect(repo.deleteCalls).toBe(0);
  });

  it('deletes missing records after a complete run within --max-rejects', async () => {
    const list = [...features(2), { position: 9, rejection: { field: '(record)', reason: 'x' } }];
    const { repo, result } = run(list, { source: 's', deleteMissing: true, maxRejects: 1 });
    expect(await result()).toMatchObject({ deleted: 7, rejected: 1 });
    expect(repo.options?.trackSeen).toBe(true);
  });

  it('refuses --delete-missing without a source', async () => {
    await expect(run(features(1), { deleteMissing: true }).result()).rejects.toThrow(/needs a source/);
  });

  it('fails on a database error and still closes the session', async () => {
    const { repo, result } = run(features(10), { batchSize: 2 });
    repo.failOnBatch = 3;
    await expect(result()).rejects.toThrow('connection lost');
    expect(repo.closed).toBe(true);
  });

  it('passes rejections to the callback and reports progress after every batch', async () => {
    const seen: number[] = [];
    const progress: number[] = [];
    const { result } = run([...features(4), { position: 7, rejection: { field: 'x', reason: 'y' } }], {
      batchSize: 2,
      maxReportedRejections: 0,
      onRejection: (r) => {
        seen.push(r.position);
      },
      onProgress: (s) => progress.push(s.inserted),
    });
    const summary = await result();
    expect(summary.rejections).toEqual([]);
    expect(seen).toEqual([7]);
    expect(progress).toEqual([2, 4]);
  });
});
