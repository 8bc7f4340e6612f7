import { Logger } from '@nestjs/common';
import type { Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { databaseTrouble } from '../common/database-errors';
import { withHeldClient } from './held-client';
import { checkReplica } from './replica-health';
import { StatementDeadline, statementDeadline } from './statement-deadline';

export interface NamedPool {
  name: string;
  pool: Pool;
}

export interface Replica extends NamedPool {
  url: string;
  /** host:port/database, for logs and readiness. */
  where: string;
}

export interface ReplicaState {
  name: string;
  where: string;
  inUse: boolean;
  lagSeconds: number | null;
  reason?: string;
}

export interface ReadRouterOptions {
  maxLagSeconds: number;
  checkIntervalMs: number;
  checkTimeoutMs: number;
  /** Statements in flight are cancelled when their work's deadline passes (statement-deadline.ts). */
  cancelOnDeadline: boolean;
}

// PostgreSQL's "canceling statement due to conflict with recovery": the replica works, this read lost.
const RECOVERY_CONFLICT = '40001';

// The request path's reads: round robin over the replicas whose last check passed, else the fallback
// pool (the primary, or its read-only role). A read that fails because the replica went away (or lost
// a recovery conflict) is run again on the fallback, so stopping a replica costs no request; a replica
// that went away is skipped from then on, and the periodic check brings it back once it answers and
// has caught up.
export class ReadRouter {
  private readonly logger = new Logger('Database');
  private readonly state = new Map<string, { inUse: boolean; lagSeconds: number | null; reason?: string }>();
  private next = 0;
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;
  /** Reads served, by pool name (replicas and the fallback). */
  readonly reads = new Map<string, number>();
  /** Reads a replica failed and the fallback then served, by replica name. */
  readonly failovers = new Map<string, number>();

  constructor(
    private readonly fallback: NamedPool,
    readonly replicas: Replica[],
    private readonly options: ReadRouterOptions,
  ) {
    // Not in use until a first check passes (start() runs one before the app serves).
    for (const r of replicas) this.state.set(r.name, { inUse: false, lagSeconds: null, reason: 'not checked yet' });
  }

  // `budgetMs`: the statement runs in a read-only transaction of its own whose statement_timeout is
  // that many milliseconds (PostgreSQL cancels it past that; the caller decides what that means).
  async query<T extends QueryResultRow>(config: QueryConfig, budgetMs?: number): Promise<QueryResult<T>> {
    const replica = this.pick();
    if (!replica) return this.run<T>(this.fallback, config, budgetMs);
    try {
      return await this.run<T>(replica, config, budgetMs);
    } catch (error) {
      const conflict = (error as { code?: unknown }).code === RECOVERY_CONFLICT;
      if (!conflict && databaseTrouble(error) !== 'unavailable') throw error;
      if (!conflict) this.markDown(replica, `failed a read: ${(error as Error).message}`);
      this.failovers.set(replica.name, (this.failovers.get(replica.name) ?? 0) + 1);
      return this.run<T>(this.fallback, config, budgetMs);
    }
  }

  /** The pool the next read goes to. */
  pick(): Replica | undefined {
    const healthy = this.replicas.filter((r) => this.state.get(r.name)!.inUse);
    if (healthy.length === 0) return undefined;
    this.next = (this.next + 1) % healthy.length;
    return healthy[this.next];
  }

  states(): ReplicaState[] {
    return this.replicas.map((r) => ({ name: r.name, where: r.where, ...this.state.get(r.name)! }));
  }

  async start(): Promise<void> {
    if (this.replicas.length === 0) return;
    await this.check();
    this.timer = setInterval(() => void this.check(), this.options.checkIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Checks every replica once (a check still running is joined, not doubled). */
  check(): Promise<void> {
    this.checking ??= Promise.all(this.replicas.map((r) => this.checkOne(r))).then(
      () => void (this.checking = undefined),
    );
    return this.checking;
  }

  private async checkOne(replica: Replica): Promise<void> {
    const result = await checkReplica(replica.url, this.options.maxLagSeconds, this.options.checkTimeoutMs);
    const before = this.state.get(replica.name)!;
    if (result.ok) {
      if (!before.inUse)
        this.logger.log(`Replica ${replica.name} (${replica.where}) in use (lag ${result.lagSeconds.toFixed(1)} s)`);
      this.state.set(replica.name, { inUse: true, lagSeconds: result.lagSeconds });
    } else {
      if (before.inUse || before.reason === 'not checked yet') this.logSkipped(replica, result.reason);
      this.state.set(replica.name, { inUse: false, lagSeconds: result.lagSeconds ?? null, reason: result.reason });
    }
  }

  private markDown(replica: Replica, reason: string): void {
    const before = this.state.get(replica.name)!;
    if (!before.inUse) return;
    this.logSkipped(replica, reason);
    this.state.set(replica.name, { inUse: false, lagSeconds: null, reason });
  }

  private logSkipped(replica: Replica, reason: string): void {
    this.logger.warn(`Replica ${replica.name} (${replica.where}) skipped, reads go elsewhere: ${reason}`);
  }

  private async run<T extends QueryResultRow>(
    target: NamedPool,
    config: QueryConfig,
    budgetMs?: number,
  ): Promise<QueryResult<T>> {
    // Under a deadline, on a connection held for the statement, so that it can be cancelled.
    const deadline = statementDeadline();
    const cancellable = this.options.cancelOnDeadline;
    const result =
      budgetMs !== undefined
        ? await withinBudget<T>(target.pool, config, budgetMs, deadline, cancellable)
        : deadline
          ? await withHeldClient(target.pool, (client, broken) =>
              deadline.run(client, broken, cancellable, () => client.query<T>(config)),
            )
          : await target.pool.query<T>(config);
    this.reads.set(target.name, (this.reads.get(target.name) ?? 0) + 1);
    return result;
  }
}

// One statement with its own statement_timeout: SET LOCAL lasts until the transaction ends, so the
// pooled connection goes back with the pool's own setting whatever happened. A connection that cannot
// even roll back is broken, and the pool gets a new one.
function withinBudget<T extends QueryResultRow>(
  pool: Pool,
  config: QueryConfig,
  budgetMs: number,
  deadline: StatementDeadline | undefined,
  cancellable: boolean,
): Promise<QueryResult<T>> {
  return withHeldClient(pool, async (client, broken) => {
    const statement = () => budgeted<T>(client, broken, config, budgetMs);
    return deadline ? deadline.run(client, broken, cancellable, statement) : statement();
  });
}

async function budgeted<T extends QueryResultRow>(
  client: PoolClient,
  broken: (error: unknown) => void,
  config: QueryConfig,
  budgetMs: number,
): Promise<QueryResult<T>> {
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(budgetMs))}`);
    const result = await client.query<T>(config);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(broken);
    throw error;
  }
}
