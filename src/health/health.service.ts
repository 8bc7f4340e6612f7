import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorResult,
  HealthIndicatorService,
  PrismaHealthIndicator,
} from '@nestjs/terminus';
import { APP_CONFIG, AppConfig, requireDatabaseUrl } from '../config/app-config';
import { Migrator } from '../database/migrator';
import { PrismaService } from '../database/prisma.service';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { HealthException, HealthExceptionCode } from './health.exception';
import { HealthRepository } from './health.repository';

const DB_PING_TIMEOUT_MS = 1000;
// The database's checks run at most once a second per instance; probes in between get their answer.
export const DATABASE_CHECK_INTERVAL_MS = 1000;

@Injectable()
export class HealthService {
  private expectedMigrations?: string[];
  private readonly recent = new Map<string, { at: number; result: Promise<HealthIndicatorResult> }>();

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly prismaIndicator: PrismaHealthIndicator,
    private readonly prisma: PrismaService,
    private readonly repository: HealthRepository,
    private readonly shutdown: ShutdownState,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // Liveness: the process runs and serves HTTP; it never touches the database.
  live(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.indicators.check('process').up({ uptimeSeconds: Math.round(process.uptime()) }),
    ]);
  }

  // Readiness: not shutting down, the database answers, and every migration on disk is applied.
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.acceptingRequests(),
        () =>
          this.atMostOncePerInterval('database', () =>
            this.prismaIndicator.pingCheck('database', this.prisma, { timeout: DB_PING_TIMEOUT_MS }),
          ),
        () => this.atMostOncePerInterval('migrations', () => this.migrationsApplied()),
        ...(this.prisma.reads.replicas.length > 0 ? [() => this.replicas()] : []),
      ]);
    } catch (error) {
      if (error instanceof ServiceUnavailableException) throw notReady(error.getResponse() as HealthCheckResult);
      throw error;
    }
  }

  // A flood of probes (no key, no limit: load balancers call this) must not become a flood of
  // database round trips: a check's last answer (or the one in flight) serves every probe for
  // DATABASE_CHECK_INTERVAL_MS. The shutdown check is never kept: it is read at once, and no I/O.
  private atMostOncePerInterval(
    name: string,
    check: () => Promise<HealthIndicatorResult>,
  ): Promise<HealthIndicatorResult> {
    const now = Date.now();
    const last = this.recent.get(name);
    if (last && now - last.at < DATABASE_CHECK_INTERVAL_MS) return last.result;
    const result = check();
    this.recent.set(name, { at: now, result });
    return result;
  }

  private acceptingRequests(): HealthIndicatorResult {
    const check = this.indicators.check('shutdown');
    return this.shutdown.shuttingDown ? check.down('the process is shutting down') : check.up();
  }

  // Informational: a skipped replica never makes the instance unready (its reads go to the primary).
  private replicas(): HealthIndicatorResult {
    const states = this.prisma.reads.states();
    return this.indicators.check('replicas').up({
      inUse: states.filter((r) => r.inUse).map((r) => ({ name: r.name, where: r.where, lagSeconds: r.lagSeconds })),
      skipped: states.filter((r) => !r.inUse).map((r) => ({ name: r.name, where: r.where, reason: r.reason })),
    });
  }

  private async migrationsApplied(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('migrations');
    this.expectedMigrations ??= new Migrator(requireDatabaseUrl(this.config)).read().map((m) => m.name);
    let applied: Set<string>;
    try {
      applied = await this.repository.appliedMigrations();
    } catch {
      return check.down('cannot read the migration table');
    }
    const pending = this.expectedMigrations.filter((name) => !applied.has(name));
    if (pending.length > 0) return check.down(`${pending.length} pending: ${pending.join(', ')}`);
    return check.up({ applied: this.expectedMigrations.length });
  }
}

function notReady(result: HealthCheckResult): HealthException {
  const details = Object.entries(result.error ?? {}).map(([field, value]) => ({
    field,
    message: typeof value?.message === 'string' ? value.message : 'check failed',
  }));
  return new HealthException(HealthExceptionCode.NOT_READY, 'The service is not ready', details);
}
