import { execFile, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

// Runs a command to its end; never throws for a non-zero exit (callers say what they expected).
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      {
        cwd: REPO_ROOT,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({
          code,
          stdout: String(stdout),
          stderr: String(stderr) + (error && typeof error.code !== 'number' ? `\n${error.message}` : ''),
        });
      },
    );
  });
}

export async function runOk(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code}\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`,
    );
  }
  return result.stdout;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function succeeds(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 }).status === 0;
}

// A Docker engine and a compose command to test with: the running engine, or dockerd started here (root
// only; it keeps running after the tests, as a system service would). Synchronous, so a spec can choose
// describe or describe.skip when it loads. Returns the reason when there is none.
export function dockerAvailability(): { compose: string[] } | { unavailable: string } {
  if (!succeeds('sh', ['-c', 'command -v docker']))
    return { unavailable: 'the docker command is not installed (Debian: apt-get install docker.io)' };
  if (!succeeds('docker', ['info'])) {
    const canStart = succeeds('sh', ['-c', 'command -v dockerd']) && process.getuid?.() === 0;
    if (!canStart)
      return {
        unavailable: 'no Docker engine answers and dockerd cannot be started here (not installed, or not root)',
      };
    const logFile = join(tmpdir(), 'lis-test-dockerd.log');
    const log = openSync(logFile, 'a');
    spawn('dockerd', [], { detached: true, stdio: ['ignore', log, log] }).unref();
    closeSync(log);
    let answered = false;
    for (let i = 0; i < 60 && !answered; i++) {
      spawnSync('sleep', ['1']);
      answered = succeeds('docker', ['info']);
    }
    if (!answered) return { unavailable: `dockerd was started but did not answer within 60 s (see ${logFile})` };
  }
  // `docker compose` (v2 plugin) when present, else Debian's docker-compose (v1); both read the same file.
  if (succeeds('docker', ['compose', 'version'])) return { compose: ['docker', 'compose'] };
  if (succeeds('docker-compose', ['version'])) return { compose: ['docker-compose'] };
  return {
    unavailable: 'neither `docker compose` nor `docker-compose` is installed (Debian: apt-get install docker-compose)',
  };
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

// One compose project as a new user runs it: the repository's docker-compose.yml, no .env, none of the
// caller's environment (only what finds the tools and the engine), a unique project name and image tag.
export class ComposeProject {
  readonly name = `lis-test-${process.pid}-${Date.now().toString(36)}`;
  readonly image = `location-imagery-search:${this.name}`;
  private readonly emptyEnvFile: string;
  /** Variables for every later compose command, as a user's shell would export them (the scale profile's). */
  extraEnv: Record<string, string> = {};

  constructor(
    private readonly compose: string[],
    readonly port: number,
  ) {
    this.emptyEnvFile = join(mkdtempSync(join(tmpdir(), 'lis-compose-')), 'empty.env');
    writeFileSync(this.emptyEnvFile, '');
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private env(): NodeJS.ProcessEnv {
    const { PATH, HOME, DOCKER_HOST, DOCKER_CONFIG, XDG_RUNTIME_DIR } = process.env;
    const kept = Object.entries({ PATH, HOME, DOCKER_HOST, DOCKER_CONFIG, XDG_RUNTIME_DIR }).filter(
      ([, v]) => v !== undefined,
    );
    return { ...Object.fromEntries(kept), PORT: String(this.port), API_IMAGE: this.image, ...this.extraEnv };
  }

  run(args: string[], timeoutMs = 300_000): Promise<CommandResult> {
    const [command, ...first] = this.compose;
    const all = [
      ...first,
      '--env-file',
      this.emptyEnvFile,
      '-p',
      this.name,
      '-f',
      join(REPO_ROOT, 'docker-compose.yml'),
      ...args,
    ];
    return run(command, all, { env: this.env(), timeoutMs });
  }

  async ok(args: string[], timeoutMs = 300_000): Promise<string> {
    const result = await this.run(args, timeoutMs);
    if (result.code !== 0) {
      throw new Error(
        `compose ${args.join(' ')} exited ${result.code}\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`,
      );
    }
    return result.stdout + result.stderr;
  }

  async logs(service: string): Promise<string> {
    return (await this.run(['logs', '--no-color', service], 60_000)).stdout;
  }

  // Ready = the API's own readiness check answers 200 through the published port. Each attempt has
  // its own timeout: a request made while the container starts can be accepted by Docker's port
  // proxy and never answered, and without one the whole test hung (seen twice, 8 and 15 minutes,
  // with the API healthy and idle).
  async waitUntilReady(timeoutMs = 240_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const status = await fetch(`${this.baseUrl}/health/ready`, {
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      await sleep(1000);
    }
    throw new Error(`the API was not ready within ${timeoutMs / 1000} s\n${(await this.logs('api')).slice(-6000)}`);
  }

  async remove(): Promise<void> {
    await this.run(['down', '-v', '--remove-orphans'], 120_000);
    // Only the tag: its layers stay as the build cache of the next run.
    await run('docker', ['rmi', '--no-prune', this.image], { timeoutMs: 60_000 });
  }
}

/** Every request of the docker tests gives up after this long (then retries or fails, never hangs). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** KEY=VALUE lines of an env file (comments and blank lines skipped), as compose reads them. */
export function readEnvFile(path: string): Record<string, string> {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim());
  return Object.fromEntries(
    lines.filter((l) => l && !l.startsWith('#')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}
