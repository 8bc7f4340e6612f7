import { Test } from '@nestjs/testing';
import { generateApiKey } from '../../src/api-key/api-key-hash';
import { DatabaseModule } from '../../src/database/database.module';
import { Migrator } from '../../src/database/migrator';
import { FeatureItem } from '../../src/imagery/imagery-feature';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { insertPlaces } from './places';
import { ServiceProcess, startServiceProcess } from './service-process';
import { feature, testConfig } from './test-app';

// A bounded mixed search load against the built server in its own process, for fault injection
// (test/e2e/database-faults.e2e.spec.ts): each kind of search, and a key nobody issued.
const QUERIES = {
  exact: 'Fault Lane 1',
  prefix: 'Fault La',
  misspelt: 'Fualt Lnae', // the corrections' best-effort statements: where the process used to die
  noMatch: 'qzxwvk plorg',
  coordinates: '47.14, 9.52',
  // A country named, whose words name no place in it: the look-up of the whole query as a place's name.
  countryNamed: 'Fault Lane 1, Italy',
  // A category around a point: its pois, and the whole query looked up as a place's name first.
  category: 'hotel near 47.14, 9.52',
  // A category around a named town: the town's own pois, then its surroundings' (category-search.sql.ts).
  categoryInTown: 'hotel in Faultwil',
  // A named town: the records nearest its point, read beside its places (place-pins.sql.ts).
  town: 'Faultwil',
  // A box and a circle newest first: read cell by cell (cell-walk.sql.ts).
  boxNewest: { bbox: [9.515, 47.135, 9.525, 47.145], sort: 'newest' },
  circleNewest: { query: '47.14, 9.52', sort: 'newest' },
  // A named town within a region: its pinned records, and the other matches counted by their ids alone
  // when those fill the page (headTailPageSql's count without an estimate).
  townInRegion: { query: 'Faultwil', region: 'LI' },
  // Words near a point: the ranked text search that scores a run of equal matches once.
  textNear: { query: 'Fault Lane', near: { lat: 47.14, lon: 9.52, radius_m: 1000 } },
  // The opt-in detail read after the page: each record's sequence, history, place and match.
  detailed: { query: 'Fault Lane 1', include: ['sequence', 'history', 'place', 'match'] },
  // Only the newest record of each spot and direction (an anti-join over the page's neighbours).
  newestPerSpot: { query: '47.14, 9.52', newest_per_spot: true },
  // A structured address: its parts read at their levels (the town's place, then the street's records).
  structured: { address: { housenumber: '1', street: 'Fault Lane', city: 'Faultwil' } },
  // In a language: the town's names by language read after the page (language/localized-names.repository.ts).
  inLanguage: { query: 'Faultwil', lang: 'de', include: ['interpretation'] },
} satisfies Record<string, string | object>;
// The id of the catalogue's record of Fault Lane 1.
const FIRST_RECORD_ID = '5d1c2e0a-3f4b-4c6d-8e9f-0a1b2c3d4e5f';
// GET requests: a map tile where the records lie (its data version and its one statement), and one
// record by id with its sequence and history (GET /images/{id}, its own statements).
const GETS = {
  tile: { path: '/tiles/16/34501/23013.mvt', keyed: false },
  record: { path: `/images/${FIRST_RECORD_ID}?include=sequence,history,place`, keyed: true },
};
export type Kind = keyof typeof QUERIES | 'unknownKey' | keyof typeof GETS;
export const KINDS = [...Object.keys(QUERIES), 'unknownKey', ...Object.keys(GETS)] as Kind[];
const WORKERS = 4; // bounded: a loaded 2-core machine must still answer in time
export const RECOVERY_MS = 20_000; // generous for a loaded machine; typically well under 1 s

export interface Answer {
  kind: Kind;
  status: number; // 0: no HTTP answer at all
  retryAfter: string | null;
  code?: string;
  found?: number; // records on the page
}

// A migrated database holding the five records the searches find, and the town they lie in.
export async function seedFaultCatalogue(databaseUrl: string): Promise<void> {
  await new Migrator(databaseUrl).migrate();
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig({ databaseUrl })), ImageryModule],
  }).compile();
  await moduleRef.init();
  try {
    async function* items(): AsyncGenerator<FeatureItem> {
      for (let i = 1; i <= 5; i++)
        yield { position: i, feature: feature(`Fault Lane ${i}`, i === 1 ? { id: FIRST_RECORD_ID } : {}) };
    }
    await moduleRef.get(ImageryImportService).importFeatures(items(), { source: null });
  } finally {
    await moduleRef.close();
  }
  const town = { kind: 'locality', name: 'Faultwil', label: 'Faultwil, Liechtenstein', countryCode: 'LI' } as const;
  await insertPlaces([{ ...town, key: 'faultwil', lon: 9.52, lat: 47.14, importance: 0.5 }], databaseUrl);
}

export class FaultLoad {
  readonly answers: Answer[] = [];
  private readonly key = generateApiKey();
  service!: ServiceProcess;

  async start(databaseUrl: string, env: Record<string, string> = {}): Promise<void> {
    this.service = await startServiceProcess({
      DATABASE_URL: databaseUrl,
      BOOTSTRAP_API_KEY: this.key,
      API_KEY_CACHE_SECONDS: '0', // every request looks its key up: the key lookup is under fault too
      RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_FAILURES_PER_MINUTE: '10000',
      DB_CONNECT_TIMEOUT_MS: '2000',
      ...env,
    });
  }

  async search(kind: Kind): Promise<Answer> {
    if (kind === 'tile' || kind === 'record') return this.get(kind);
    const asked = kind === 'unknownKey' ? QUERIES.exact : QUERIES[kind];
    try {
      const res = await fetch(`${this.service.base}/search`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': kind === 'unknownKey' ? generateApiKey() : this.key,
        },
        body: JSON.stringify(typeof asked === 'string' ? { query: asked } : asked),
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string }; data?: unknown[] };
      const answer = { kind, status: res.status, retryAfter: res.headers.get('retry-after'), code: body.error?.code };
      return { ...answer, found: body.data?.length };
    } catch {
      return { kind, status: 0, retryAfter: null };
    }
  }

  private async get(kind: keyof typeof GETS): Promise<Answer> {
    const { path, keyed } = GETS[kind];
    try {
      const res = await fetch(`${this.service.base}${path}`, {
        headers: keyed ? { 'x-api-key': this.key } : {},
        signal: AbortSignal.timeout(30_000),
      });
      const body = (res.headers.get('content-type')?.includes('json') ? await res.json() : {}) as {
        error?: { code?: string };
      };
      return { kind, status: res.status, retryAfter: res.headers.get('retry-after'), code: body.error?.code };
    } catch {
      return { kind, status: 0, retryAfter: null };
    }
  }

  // `workers` loop over every kind of request until the returned stop() is called; every answer is kept.
  run(workers = WORKERS): () => Promise<void> {
    const state = { running: true };
    const loops = Array.from({ length: workers }, async (_, w) => {
      for (let i = w; state.running; i++) this.answers.push(await this.search(KINDS[i % KINDS.length]));
    });
    return async () => {
      state.running = false;
      await Promise.all(loops);
    };
  }

  // Sequentially, every kind answers as it does with a healthy database (the town's step finds its records).
  async expectHealthy(): Promise<void> {
    for (const kind of KINDS)
      expect(await this.search(kind)).toMatchObject({ kind, status: kind === 'unknownKey' ? 401 : 200 });
    expect((await this.search('town')).found).toBe(5);
  }

  async timeToRecover(): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < RECOVERY_MS) {
      if (this.service.ended()) throw new Error(`the service ended; ${this.lastWords()}`);
      if ((await this.search('exact')).status === 200) return Date.now() - started;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no recovery within ${RECOVERY_MS} ms; ${this.lastWords()}`);
  }

  // What every fault test asserts once the load has stopped.
  expectSurvived(): void {
    expect({ ended: this.service.ended() }).toEqual({ ended: undefined });
    expect(this.service.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    const unexpected = this.answers.filter((a) =>
      a.kind === 'unknownKey' ? ![401, 503].includes(a.status) : ![200, 503].includes(a.status),
    );
    expect(unexpected).toEqual([]);
    const unavailable = this.answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0); // the faults reached the requests
    expect(unavailable.filter((a) => a.retryAfter !== '5' || a.code !== 'DATABASE_UNAVAILABLE')).toEqual([]);
  }

  /** For the test's own log: answers by kind, ok/503. */
  summary(): string {
    const count = (kind: Kind, status: number) => this.answers.filter((a) => a.kind === kind && a.status === status);
    const byKind = KINDS.map((k) => `${k} ${count(k, 200).length + count(k, 401).length}/${count(k, 503).length}`);
    return `${this.answers.length} requests; ${byKind.join(', ')} (ok/503)`;
  }

  // The end of the service's log, without the request lines (each 503 logs one).
  private lastWords(): string {
    const lines = this.service
      .output()
      .split('\n')
      .filter((l) => !l.includes('"msg":"request failed"'));
    return `${this.service.ended() ?? 'still running'}; its log ends:\n${lines.slice(-15).join('\n')}`;
  }
}
