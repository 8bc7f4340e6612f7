import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

const BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const SLOT = 'lis_test_replica';
// Throwaway clusters: no fsync, local trust (TCP on 127.0.0.1 only), replication allowed from 127.0.0.1.
const CONF =
  "listen_addresses = '127.0.0.1'\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\nhot_standby = on\n";
const HBA = 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n';

// A PostgreSQL cluster of its own in a temporary directory, on a free port, run with the system's
// PostgreSQL 15 binaries. PostgreSQL refuses to run as root: as root it runs as the postgres user in a
// directory that user owns. A primary is made with initdb; a replica of it as an operator makes one,
// with pg_basebackup -R (standby.signal and primary_conninfo) and a replication slot, so WAL it has not
// received survives while it is stopped. A cluster of its own rather than a copy of the shared test
// server: pg_basebackup copies a whole cluster, and the test server holds every other run's databases.
export class LocalCluster {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  url(database: string): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  static async primary(): Promise<LocalCluster> {
    const cluster = new LocalCluster(await ownedTempDir(), await freePort());
    await as(join(BIN, 'initdb'), [
      '-D',
      cluster.dir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    await cluster.configure();
    await cluster.start();
    await query(cluster.url('postgres'), 'SELECT pg_create_physical_replication_slot($1, true)', [SLOT]);
    return cluster;
  }

  async replica(): Promise<LocalCluster> {
    const replica = new LocalCluster(await ownedTempDir(), await freePort());
    await as(join(BIN, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.port),
      '-U',
      'postgres',
      '-D',
      replica.dir,
      '-R',
      '-X',
      'stream',
      '-S',
      SLOT,
      '-c',
      'fast',
      '--no-sync',
    ]);
    await replica.configure();
    await replica.start();
    return replica;
  }

  async start(): Promise<void> {
    await as(join(BIN, 'pg_ctl'), [
      '-D',
      this.dir,
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '30',
      '-o',
      `-p ${this.port} -k ${this.dir}`,
      'start',
    ]);
  }

  /** Fast shutdown: open connections are cut, as when a database host goes down. */
  async stop(): Promise<void> {
    await as(join(BIN, 'pg_ctl'), ['-D', this.dir, '-m', 'fast', '-w', 'stop']);
  }

  /** Resolves once this replica has replayed everything its primary has written so far. */
  async caughtUpWith(primary: LocalCluster, timeoutMs = 15_000): Promise<void> {
    const [{ lsn }] = await query<{ lsn: string }>(primary.url('postgres'), 'SELECT pg_current_wal_lsn()::text AS lsn');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const replayed = await query<{ done: boolean }>(
        this.url('postgres'),
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [lsn],
      ).catch(() => []);
      if (replayed[0]?.done) return;
      if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${lsn} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Immediate shutdown: every process killed at once, crash recovery at the next start. */
  async crash(): Promise<void> {
    await as(join(BIN, 'pg_ctl'), ['-D', this.dir, '-m', 'immediate', '-w', 'stop']);
  }

  async remove(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  // The settings appended last win over initdb's (and over the copy's, which came from the primary).
  private async configure(): Promise<void> {
    await as(
      'sh',
      ['-c', `cat >> postgresql.conf && printf '${HBA.replace(/\n/g, '\\n')}' > pg_hba.conf`],
      this.dir,
      CONF,
    );
  }
}

export async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const asRoot = process.getuid?.() === 0;

async function ownedTempDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'lis-cluster-'));
  if (asRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).trim());
    chownSync(dir, uid, uid);
  }
  chmodSync(dir, 0o700);
  return dir;
}

function as(command: string, args: string[], cwd?: string, input?: string): Promise<string> {
  return asRoot
    ? run('runuser', ['-u', 'postgres', '--', command, ...args], cwd, input)
    : run(command, args, cwd, input);
}

function run(command: string, args: string[], cwd?: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { cwd, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')} failed: ${stderr || error.message}`)) : resolve(stdout),
    );
    child.stdin!.on('error', () => undefined); // a command that exits without reading its input
    child.stdin!.end(input ?? '');
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
