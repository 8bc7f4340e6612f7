import {
  ComposeProject,
  dockerAvailability,
  freePort,
  readEnvFile,
  REPO_ROOT,
  REQUEST_TIMEOUT_MS,
  runOk,
} from './docker-harness';

// `docker compose up` on a fresh clone, as a new user runs it: no .env, no configuration. The base images
// are the offline stand-ins (built once per machine, kept between runs) unless real ones are present.
const KEY_IN_LOG = /x-api-key: (\S+)'/g;
const FIRST_KEY_NOTICE = 'Created the first API key';

async function search(
  project: ComposeProject,
  key: string,
  query: string,
  baseUrl = project.baseUrl,
): Promise<{ status: number; body: any; servedBy: string | null }> {
  const response = await fetch(`${baseUrl}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ query, limit: 2 }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, body: await response.json(), servedBy: response.headers.get('x-served-by') };
}

// A setting of the PostgreSQL server running in one of the project's services.
async function showSetting(project: ComposeProject, service: string, name: string): Promise<string> {
  const shown = await project.run(
    ['exec', '-T', service, 'psql', '-U', 'lis', '-d', 'lis', '-Atc', `SHOW ${name}`],
    60_000,
  );
  if (shown.code !== 0)
    throw new Error(`SHOW ${name} in ${service} exited ${shown.code}: ${shown.stderr.slice(-2000)}`);
  return shown.stdout.trim();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const docker = dockerAvailability();
if ('unavailable' in docker) console.warn(`Docker tier skipped: ${docker.unavailable}`);
const describeWithDocker = 'compose' in docker ? describe : describe.skip;

describeWithDocker('docker compose up on a fresh clone', () => {
  let project: ComposeProject;
  const timings: string[] = [];
  const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await work();
    timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return result;
  };

  let key: string;

  beforeAll(async () => {
    project = new ComposeProject((docker as { compose: string[] }).compose, await freePort());
    await timed('base images', () =>
      runOk('bash', [`${REPO_ROOT}/docker/offline/build-images.sh`], { timeoutMs: 20 * 60_000 }),
    );
    await timed('api image', () => project.ok(['build', 'api'], 20 * 60_000));
  }, 40 * 60_000);

  afterAll(async () => {
    await project.remove();
    console.log(`Docker tier (${project.name}): ${timings.join(', ')}`);
  }, 180_000);

  // One story in order: each step needs the state the previous one left.
  it(
    'starts with no configuration, prints a first key once, seeds on request, and keeps its data across down/up',
    async () => {
      await timed('first up', async () => {
        await project.ok(['up', '-d']);
        await project.waitUntilReady();
      });

      const firstLog = await project.logs('api');
      const keys = [...firstLog.matchAll(KEY_IN_LOG)].map((m) => m[1]);
      expect(keys).toHaveLength(1);
      [key] = keys;
      expect(firstLog).toContain(FIRST_KEY_NOTICE);
      expect(firstLog).toContain(`curl -s http://localhost:${project.port}/search`);
      expect(firstLog).toContain('docker compose --profile seed run --rm seed');
      expect(firstLog).toContain('docker compose exec -T api node dist/src/cli/import.cli.js -');

      // The Compose file's buffer cache, not PostgreSQL's 128MB default (docs/operations.md#memory).
      expect(await showSetting(project, 'db', 'shared_buffers')).toBe('1GB');

      const empty = await search(project, key, 'Beverly Hills');
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual([]);
      expect((await search(project, 'lis_not-a-key-at-all-000000000000', 'Beverly Hills')).status).toBe(401);

      await timed('seed', () => project.ok(['--profile', 'seed', 'run', '--rm', 'seed'], 600_000));
      const seeded = await search(project, key, 'Beverly Hills');
      expect(seeded.status).toBe(200);
      expect(seeded.body.data.length).toBeGreaterThan(0);
      expect(seeded.body.data[0].address).toMatch(/Beverly Hills/i);

      await timed('down and up', async () => {
        await project.ok(['down']);
        await project.ok(['up', '-d']);
        await project.waitUntilReady();
      });
      const again = await search(project, key, 'Beverly Hills');
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(seeded.body.data);
      const secondLog = await project.logs('api');
      expect(secondLog).toMatch(/Listening on/);
      expect(secondLog).not.toContain(FIRST_KEY_NOTICE);
      expect(secondLog).not.toContain(key);
      expect(secondLog).not.toContain('The imagery catalogue is empty');
    },
    20 * 60_000,
  );

  // The scale profile on the same project (its seeded database): a streaming replica made from db, a
  // second API instance, nginx in front and Redis, with the settings of docker/scale/scale.env.
  it(
    'scales out: both instances answer through the load balancer, and losing one and the replica loses no search',
    async () => {
      const lbPort = await freePort();
      const lb = `http://127.0.0.1:${lbPort}`;
      project.extraEnv = { ...readEnvFile(`${REPO_ROOT}/docker/scale/scale.env`), LB_PORT: String(lbPort) };
      await timed('scale up', async () => {
        await project.ok(['up', '-d']);
        // Ready through the balancer, with the replica in use (it is copied from db first).
        const deadline = Date.now() + 240_000;
        for (;;) {
          const ready: any = await fetch(`${lb}/health/ready`, {
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          }).then(
            (r) => r.json(),
            () => undefined,
          );
          if (ready?.details?.replicas?.inUse?.length === 1) break;
          if (Date.now() > deadline)
            throw new Error(
              `not ready through the load balancer: ${JSON.stringify(ready)}\n${(await project.logs('db-replica')).slice(-3000)}`,
            );
          await sleep(1000);
        }
      });

      expect(await showSetting(project, 'db-replica', 'shared_buffers')).toBe('1GB');

      const answers = await Promise.all(Array.from({ length: 8 }, () => search(project, key, 'Beverly Hills', lb)));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect(answers[0].body.data[0].address).toMatch(/Beverly Hills/i);
      expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set(['api-1', 'api-2']));

      // A light load (4 searches at a time) while api-2 and the replica are stopped, with a key of its own
      // whose rate limit the load cannot reach (on a quiet machine it sends over 600 searches a minute,
      // the default limit, and failover, not the limiter, is what this checks).
      const created = await project.ok(
        [
          'exec',
          '-T',
          'api',
          'node',
          'dist/src/cli/keys.cli.js',
          'create',
          '--name',
          'scale-load',
          '--rate-limit',
          '100000',
        ],
        120_000,
      );
      expect(created).toContain('100000 requests per minute');
      const loadKey = /cannot be shown again:\s*\n(\S+)/.exec(created)![1];
      const state = { running: true };
      const results: Array<{ status: number; servedBy: string | null }> = [];
      const worker = async () => {
        while (state.running)
          results.push(
            await search(project, loadKey, 'Beverly Hills', lb).catch(() => ({
              status: 0,
              servedBy: null,
              body: null,
            })),
          );
      };
      const load = Promise.all(Array.from({ length: 4 }, worker));
      await timed('stop api-2 and the replica under load', async () => {
        await sleep(1000);
        await project.ok(['stop', 'api-2', 'db-replica'], 120_000);
        await sleep(3000);
      });
      state.running = false;
      await load;
      expect(results.length).toBeGreaterThan(20);
      expect(results.filter((r) => r.status !== 200)).toEqual([]);
      expect(results.at(-1)!.servedBy).toBe('api-1');
      const ready: any = await fetch(`${lb}/health/ready`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then(
        (r) => r.json(),
      );
      expect(ready.details.replicas).toMatchObject({
        inUse: [],
        skipped: [{ name: 'replica-1', where: 'db-replica:5432/lis' }],
      });
    },
    10 * 60_000,
  );
});
