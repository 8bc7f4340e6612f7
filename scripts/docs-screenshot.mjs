// Retakes docs/screenshot.png (`npm run docs:screenshot`): the built app on a throwaway PostgreSQL
// database, the committed Liechtenstein OpenStreetMap extract imported as places (streets, buildings,
// names for the tiles), imagery in Liechtenstein, and the page in Debian's Chromium (playwright-core)
// searching a street in Vaduz with the Coverage layer shown, at 1280x800.
//
// Environment: SCREENSHOT_SERVER_URL (a PostgreSQL server with PostGIS; default
// postgresql://postgres@127.0.0.1:5432/postgres), SCREENSHOT_DB_PREFIX (the throwaway database's name
// prefix; default lis), SCREENSHOT_IMAGERY (an NDJSON of imagery records; default
// ../shared/data/real-imagery.ndjson, those in Liechtenstein are kept; without it, ten records along
// Vaduz's Städtle), SCREENSHOT_QUERY (default "Städtle Vaduz"), SCREENSHOT_OUT (default
// docs/screenshot.png), CHROMIUM_PATH (default /usr/bin/chromium).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = (name) => join(ROOT, 'dist', 'src', 'cli', `${name}.cli.js`);
const OSM = join(ROOT, 'test', 'fixtures', 'osm', 'liechtenstein.osm.pbf');
const OUT = process.env.SCREENSHOT_OUT || join(ROOT, 'docs', 'screenshot.png');
const SERVER = process.env.SCREENSHOT_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const IMAGERY = process.env.SCREENSHOT_IMAGERY || resolve(ROOT, '..', 'shared', 'data', 'real-imagery.ndjson');
const QUERY = process.env.SCREENSHOT_QUERY || 'Städtle Vaduz';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const KEY = `docs-screenshot-${'k'.repeat(24)}`;
const DEMO_SOURCE = 'demo-seed'; // /demo-images/{id}.svg draws a thumbnail for these records
const LIECHTENSTEIN = { west: 9.47, south: 47.04, east: 9.64, north: 47.28 };

function run(file, args, env) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [file, ...args], { env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${file} exited with ${code}`))));
  });
}

async function withServer(fn) {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function freePort() {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

// Imagery in Liechtenstein as demo records (their thumbnails drawn by the service, as the browser
// specs do): positions, headings, dates, addresses and the 360° flag as given.
function imageryFile(dir) {
  const inside = ([lon, lat]) =>
    lon > LIECHTENSTEIN.west && lon < LIECHTENSTEIN.east && lat > LIECHTENSTEIN.south && lat < LIECHTENSTEIN.north;
  let features;
  if (existsSync(IMAGERY)) {
    features = readFileSync(IMAGERY, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line))
      .filter((f) => inside(f.geometry.coordinates));
  } else {
    // Ten images along the Städtle, 15 m apart, looking along it; every third a 360° panorama.
    features = Array.from({ length: 10 }, (_, i) => ({
      type: 'Feature',
      id: `d0c5c000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`,
      geometry: { type: 'Point', coordinates: [9.52157, 47.13906 + i * 0.000135] },
      properties: {
        address: `Städtle ${10 + i}, 9490 Vaduz`,
        captured_at: '2024-07-09',
        heading: i % 2 ? 180 : 0,
        interactive: i % 3 === 0,
      },
    }));
  }
  const lines = features.map((f) =>
    JSON.stringify({ ...f, properties: { ...f.properties, image_url: `/demo-images/${f.id}.svg` } }),
  );
  const file = join(dir, 'imagery.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, count: lines.length };
}

async function startApp(env) {
  const app = spawn(process.execPath, ['--max-old-space-size=1024', join(ROOT, 'dist', 'src', 'main.js')], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const exited = new Promise((done) => app.on('exit', done));
  for (let i = 0; i < 600; i++) {
    if (app.exitCode !== null) throw new Error(`the app exited with ${app.exitCode}`);
    const ok = await fetch(`${env.PUBLIC_URL}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok)
      return {
        stop: () => {
          app.kill('SIGTERM');
          return exited;
        },
      };
    await new Promise((done) => setTimeout(done, 500));
  }
  app.kill('SIGTERM');
  throw new Error('the app did not become ready in 5 minutes');
}

// The page as a person leaves it: the search's results listed and on the map, Coverage on, every tile
// loaded and every label placed (MapLibre fades labels in over 300 ms).
async function takeScreenshot(base) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'lis-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.addInitScript(`localStorage.setItem('lis.apiKey', ${JSON.stringify(KEY)})`);
    await page.goto(`${base}/?query=${encodeURIComponent(QUERY)}`);
    await page.locator('body[data-ready="true"]').waitFor();
    await page.locator('#results li').first().waitFor({ timeout: 60_000 });
    await page.locator('#map[data-camera="settled"][data-basemap="loaded"]').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Coverage' }).click();
    await page.locator('#map[data-coverage="shown"]').waitFor();
    // Runs in the page (a string: this file is linted for Node, without the browser's globals).
    await page.evaluate(
      `new Promise((done) => { const map = window.lisMap; map.once('idle', () => done()); map.triggerRepaint(); })`,
    );
    await page.waitForTimeout(600);
    await page.screenshot({ path: OUT });
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

async function main() {
  const name = `${process.env.SCREENSHOT_DB_PREFIX || 'lis'}_screenshot_${process.pid}`;
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(join(tmpdir(), 'lis-screenshot-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' };
  await withServer((c) => c.query(`CREATE DATABASE "${name}"`));
  let app;
  try {
    await run(CLI('migrate'), [], env);
    await run(CLI('import-places'), [OSM, '--country', 'LI'], env);
    const imagery = imageryFile(dir);
    console.log(`Importing ${imagery.count} imagery records`);
    await run(CLI('import'), [imagery.file, '--source', DEMO_SOURCE], env);
    app = await startApp({
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      IMAGE_BASE_URL: base,
      BOOTSTRAP_API_KEY: KEY,
    });
    await takeScreenshot(base);
    console.log(`Wrote ${OUT} (${Math.round(statSync(OUT).size / 1024)} KB)`);
  } finally {
    await app?.stop();
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
