// `npm run bench:photos -- [--photos N] [--panoramas N] [--duration S] [--out DIR]`
// Photo import and image serving, each beside the floor or ceiling it is measured against:
//  - import: generated 12 MP photos (4000x3000) and 5760x2880 panoramas, imported end to end by the built
//    CLI (metadata, hashing, the store, derivatives, records with recovered addresses) into a throwaway
//    database, photos per second and the importer's peak RSS; the floor is sharp alone making the same
//    derivatives of the same files, as many at once as the importer makes them.
//  - serving: `GET /images/{id}/sd.jpg` from the built server at 16 connections (autocannon), beside a bare
//    node:http server streaming the same file with fs.createReadStream (what a static file server does).
import { ChildProcess, spawn } from 'node:child_process';
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { Migrator } from '../../src/database/migrator';
import { PHOTO_CONCURRENCY } from '../../src/photos/photo-limits';
import { makeDerivatives } from '../../src/photos/store/photo-derivatives';
import { cameraTags, writeTagsOf } from '../helpers/photo-files';
import { insertPlaces, offset } from '../helpers/places';
import { createThrowawayDatabase } from '../setup/test-database';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'import.cli.js');
const SERVER = join(ROOT, 'dist', 'src', 'main.js');
const PEAK = join(ROOT, 'test', 'helpers', 'peak-memory.cjs');
const BASE: [number, number] = [9.52, 47.139];

const { values } = parseArgs({
  options: {
    photos: { type: 'string', default: '60' },
    panoramas: { type: 'string', default: '10' },
    duration: { type: 'string', default: '5' },
    out: { type: 'string' },
  },
});

// A camera-like JPEG: a smooth gradient with grain, at quality 90 (about the size a phone writes).
async function cameraJpeg(width: number, height: number, n: number): Promise<Buffer> {
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${(n * 47) % 360},60%,70%)"/><stop offset="1" stop-color="hsl(${(n * 47 + 120) % 360},50%,30%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 10 } },
  })
    .png()
    .toBuffer();
  return sharp(gradient)
    .composite([{ input: grain, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function makePhotos(dir: string, photos: number, panoramas: number): Promise<string[]> {
  const files: Array<[string, ReturnType<typeof cameraTags>]> = [];
  for (let i = 0; i < photos + panoramas; i++) {
    const pano = i >= photos;
    const path = join(dir, `${pano ? 'pano' : 'photo'}-${String(i).padStart(4, '0')}.jpg`);
    writeFileSync(path, await cameraJpeg(pano ? 5760 : 4000, pano ? 2880 : 3000, i));
    const [lon, lat] = offset(BASE, 0, i * 8);
    const second = String(i % 60).padStart(2, '0');
    const minute = String(Math.floor(i / 60)).padStart(2, '0');
    const tags = cameraTags({
      lat,
      lon,
      time: `2024:05:01 10:${minute}:${second}`,
      offset: '+02:00',
      make: 'Bench',
      model: pano ? 'Pano' : 'Cam',
    });
    if (pano) Object.assign(tags, { 'XMP-GPano:ProjectionType': 'equirectangular' });
    files.push([path, tags]);
  }
  writeTagsOf(files);
  return files.map(([path]) => path);
}

// The floor: the same derivatives of the same files, PHOTO_CONCURRENCY at once, nothing else.
async function floor(files: string[]): Promise<number> {
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PHOTO_CONCURRENCY }, async () => {
      while (next < files.length) await makeDerivatives(readFileSync(files[next++]));
    }),
  );
  return files.length / ((Date.now() - started) / 1000);
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

async function serve(url: string, connections: number, seconds: number) {
  const r = await autocannon({ url, connections, duration: seconds });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((done, fail) => {
    const port = 3900 + Math.floor(Math.random() * 90);
    const child = spawn(process.execPath, ['--max-old-space-size=1024', SERVER], {
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => fail(new Error('the server did not start')), 60_000);
    const poll = setInterval(async () => {
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        clearInterval(poll);
        clearTimeout(timer);
        done({ child, port });
      }
    }, 500);
  });
}

async function main(): Promise<void> {
  const photos = Number(values.photos);
  const panoramas = Number(values.panoramas);
  const duration = Number(values.duration);
  const work = mkdtempSync(join(tmpdir(), 'lis-bench-photos-'));
  const folder = join(work, 'camera');
  mkdirSync(folder);
  const db = await createThrowawayDatabase('server');
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  try {
    await new Migrator(db.url).migrate();
    await insertPlaces(
      [
        {
          id: '10000000-0000-4000-8000-000000000001',
          kind: 'locality',
          name: 'Vaduz',
          label: 'Vaduz, Liechtenstein',
          lon: BASE[0],
          lat: BASE[1],
          regionCode: 'LI-11',
          countryCode: 'LI',
        },
      ],
      db.url,
    );
    const files = await makePhotos(folder, photos, panoramas);
    const megabytes = files.reduce((n, f) => n + statSync(f).size, 0) / 1e6;
    say(
      `# Photo import and image serving (npm run bench:photos -- --photos ${photos} --panoramas ${panoramas} --duration ${duration})`,
    );
    say('');
    say(
      `${new Date().toISOString()}, ${cpus().length} cores (${cpus()[0].model}), load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} before the run`,
    );
    say(`${photos} photos of 4000x3000 and ${panoramas} panoramas of 5760x2880, ${megabytes.toFixed(0)} MB in all`);
    say('');

    const floorRate = await floor(files);
    const store = join(work, 'store');
    const env = { DATABASE_URL: db.url, IMAGE_STORE_DIR: store, LOG_LEVEL: 'warn' };
    const started = Date.now();
    // As `npm run import` runs it (MALLOC_ARENA_MAX=2: glibc's per-thread arenas hold libvips' freed buffers).
    const imported = await run(process.execPath, ['--max-old-space-size=256', '--require', PEAK, CLI, folder], {
      ...env,
      MALLOC_ARENA_MAX: '2',
    });
    const seconds = (Date.now() - started) / 1000;
    if (imported.code !== 0) throw new Error(`the import failed (${imported.code}): ${imported.stderr.slice(-2000)}`);
    const peak = Number(/peak-rss-mb (\d+)/.exec(imported.stderr)?.[1]);
    const rate = files.length / seconds;
    say('| import | photos/s | peak RSS | goal |');
    say('|---|---|---|---|');
    say(`| end to end (the CLI, start-up included) | ${rate.toFixed(1)} | ${peak} MB | >= 15 photos/s, <= 500 MB |`);
    say(`| floor: sharp making the same derivatives alone | ${floorRate.toFixed(1)} | | |`);
    say(`| end to end / floor | ${((rate / floorRate) * 100).toFixed(0)}% | | >= 80% |`);
    say('');

    const { child, port } = await startServer(env);
    try {
      const shard = readdirSync(join(store, 'derivatives'))[0];
      const sd = readdirSync(join(store, 'derivatives', shard)).find((f) => f.endsWith('-sd.jpg'))!;
      const hash = sd.slice(0, 64);
      const client = new (await import('pg')).Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query('SELECT id::text FROM photos WHERE content_hash = $1', [hash]);
      await client.end();
      const ours = await serve(`http://127.0.0.1:${port}/images/${rows[0].id}/sd.jpg`, 16, duration);
      const path = join(store, 'derivatives', shard, sd);
      const bare = createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': statSync(path).size });
        createReadStream(path).pipe(res);
      });
      await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
      const ceiling = await serve(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`, 16, duration);
      bare.close();
      say(`| GET sd.jpg, 16 connections, ${duration} s | requests/s | p50 | p99 | non-2xx | goal |`);
      say('|---|---|---|---|---|---|');
      say(
        `| the service | ${ours.rps.toFixed(0)} | ${ours.p50} ms | ${ours.p99} ms | ${ours.non2xx} | >= 2,000/s, p99 <= 10 ms |`,
      );
      say(
        `| ceiling: node:http + fs.createReadStream | ${ceiling.rps.toFixed(0)} | ${ceiling.p50} ms | ${ceiling.p99} ms | ${ceiling.non2xx} | |`,
      );
      say('');
      say(
        `load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')} after the run`,
      );
    } finally {
      child.kill('SIGTERM');
    }
    if (values.out) {
      mkdirSync(values.out, { recursive: true });
      writeFileSync(join(values.out, 'README.md'), `${lines.join('\n')}\n`);
    }
  } finally {
    await db.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
