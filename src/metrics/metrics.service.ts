import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Pool } from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PrismaService } from '../database/prisma.service';
import { routeOf } from './route-of';

// One registry per application instance (tests run several in one process).
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly searchResults = new Histogram({
    name: 'lis_search_results',
    help: 'Records returned per successful search response',
    buckets: [0, 1, 2, 5, 10, 20, 50, 100],
    registers: [this.registry],
  });

  private readonly searches = new Counter({
    name: 'lis_searches_total',
    help: 'Successful searches by outcome: hit (something matched) or empty',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(prisma: PrismaService) {
    // Read at scrape time straight from the pg pools; `pool` is primary, readonly when DATABASE_READONLY_URL
    // gives the request path its own role, and replica-1, replica-2... for DATABASE_REPLICA_URLS.
    const pools = (): Array<[string, Pool]> => prisma.allPools();
    new Gauge({
      name: 'lis_db_pool_connections',
      help: 'Database pool connections by pool and state (in_use, idle)',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        for (const [name, p] of pools()) {
          this.set({ pool: name, state: 'in_use' }, p.totalCount - p.idleCount);
          this.set({ pool: name, state: 'idle' }, p.idleCount);
        }
      },
    });
    new Gauge({
      name: 'lis_db_pool_waiting_requests',
      help: 'Queries waiting for a free database connection, by pool',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        for (const [name, p] of pools()) this.set({ pool: name }, p.waitingCount);
      },
    });
    new Gauge({
      name: 'lis_db_pool_max_connections',
      help: 'Configured size of each database pool (DB_POOL_SIZE)',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        for (const [name, p] of pools()) this.set({ pool: name }, p.options.max ?? 10);
      },
    });
    this.replicaMetrics(prisma);
    collectDefaultMetrics({ register: this.registry });
  }

  // Where the request path's reads went, and the state of each replica (docs/operations.md#read-replicas).
  private replicaMetrics(prisma: PrismaService): void {
    const router = prisma.reads;
    const counted = (counter: Counter<'pool'>, counts: Map<string, number>) => {
      counter.reset();
      for (const [pool, n] of counts) counter.inc({ pool }, n);
    };
    new Counter({
      name: 'lis_db_reads_total',
      help: 'Request-path reads (search, key lookup) served, by pool',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        counted(this, router.reads);
      },
    });
    new Counter({
      name: 'lis_db_replica_failovers_total',
      help: 'Reads a replica failed (gone away, recovery conflict) that the primary then served, by replica',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        counted(this, router.failovers);
      },
    });
    new Gauge({
      name: 'lis_db_replica_in_use',
      help: 'Whether a replica receives reads (1) or is skipped (0: unreachable, lagging or not a standby)',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        for (const r of router.states()) this.set({ pool: r.name }, r.inUse ? 1 : 0);
      },
    });
    new Gauge({
      name: 'lis_db_replica_lag_seconds',
      help: 'Replay lag of each replica at its last check (absent while unreachable)',
      labelNames: ['pool'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of router.states()) if (r.lagSeconds !== null) this.set({ pool: r.name }, r.lagSeconds);
      },
    });
  }

  // Express middleware: times every request, including those refused before routing.
  httpMiddleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const end = this.httpDuration.startTimer();
      res.once('finish', () => end({ route: routeOf(req), method: req.method, status_code: String(res.statusCode) }));
      next();
    };
  }

  observeSearch(records: number, pageTotal: number): void {
    this.searchResults.observe(records);
    this.searches.inc({ outcome: pageTotal > 0 ? 'hit' : 'empty' });
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
