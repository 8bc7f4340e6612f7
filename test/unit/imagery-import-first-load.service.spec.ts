import { FeatureItem } from '../../src/imagery/imagery-feature';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { ImageryRepository } from '../../src/imagery/imagery.repository';
import { MapDataRepository } from '../../src/map-data/map-data.repository';
import { RankedWordListsRepository } from '../../src/search-index/ranked-word-lists.repository';

// A first load's end: the coverage rebuild runs on its own connection while the indexes are built, the
// statistics taken and the ranked lists refreshed (the rest of the service: imagery-import.service.spec.ts;
// a first load on a real database: test/medium/imagery-first-load.spec.ts).
const feature = (i: number): FeatureItem => ({
  position: i + 1,
  feature: {
    type: 'Feature',
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    geometry: { type: 'Point', coordinates: [9.5, 47.1] },
    properties: { address: `Street ${i}`, captured_at: '2020-01-02', heading: 10, image_url: '/a.jpg' },
  },
});

async function* items(n: number): AsyncGenerator<FeatureItem> {
  for (let i = 0; i < n; i++) yield feature(i);
}

const tick = () => new Promise((r) => setTimeout(r, 5));

// Writes everything, logs each step of the end in the order it starts and ends.
class FakeDatabase {
  events: string[] = [];
  firstLoad = true;
  indexesFail = false;
  coverageFails = false;
  async refreshOrWhyNot() {
    this.events.push('lists');
    return undefined;
  }
  async refreshCoverage() {
    this.events.push('coverage started');
    await tick();
    await tick();
    this.events.push('coverage done');
    if (this.coverageFails) throw new Error('coverage failed');
    return { rebuilt: true, cells: 42 };
  }
  async openImportSession() {
    return {
      connections: 2,
      writeBatch: async (records: unknown[]) => ({
        inserted: records.length,
        updated: 0,
        unchanged: 0,
        unrecoverable: [],
      }),
      analyze: async () => void this.events.push('analyze'),
      isFirstLoad: this.firstLoad,
      endFirstLoad: async () => {
        if (!this.firstLoad) return;
        this.firstLoad = false;
        await tick();
        if (this.indexesFail) throw new Error('index build failed');
        this.events.push('indexes built');
      },
      close: async () => void this.events.push('closed'),
    };
  }
}

function run(db: FakeDatabase) {
  const service = new ImageryImportService(
    db as unknown as ImageryRepository,
    db as unknown as RankedWordListsRepository,
    db as unknown as MapDataRepository,
  );
  return service.importFeatures(items(3));
}

describe('ImageryImportService, a first load', () => {
  it('rebuilds the coverage while its indexes are built and reports it', async () => {
    const db = new FakeDatabase();
    const summary = await run(db);
    expect(db.events).toEqual(['coverage started', 'indexes built', 'analyze', 'closed', 'lists', 'coverage done']);
    expect(summary.coverage).toMatchObject({ rebuilt: true, cells: 42 });
    expect(summary.coverage!.seconds).toBeGreaterThan(0);
  });

  it('still refreshes the coverage after the lists when it is not a first load', async () => {
    const db = new FakeDatabase();
    db.firstLoad = false;
    await run(db);
    expect(db.events).toEqual(['analyze', 'closed', 'lists', 'coverage started', 'coverage done']);
  });

  it('throws a failed coverage rebuild once the rest has ended', async () => {
    const db = new FakeDatabase();
    db.coverageFails = true;
    await expect(run(db)).rejects.toThrow('coverage failed');
    expect(db.events.slice(-2)).toEqual(['lists', 'coverage done']);
  });

  it('ends a failed first load once its coverage rebuild has ended', async () => {
    const db = new FakeDatabase();
    db.indexesFail = true;
    await expect(run(db)).rejects.toThrow('index build failed');
    expect(db.events).toEqual(['coverage started', 'coverage done', 'closed']);
  });
});
