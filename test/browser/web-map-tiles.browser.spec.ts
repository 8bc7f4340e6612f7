import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Page } from 'playwright-core';
import { Browser, launchBrowser, screenshot, serveApp } from '../helpers/browser';
import { resetPlaces } from '../helpers/places';
import { photoDetails } from '../helpers/photo-details';
import { createKey, feature, importFixture, resetImagery } from '../helpers/test-app';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { inPage, mapPixel, PageDriver, searchBy } from './page-driver';

// The service's own style on its own vector tiles (GET /tiles/{z}/{x}/{y}.mvt). The Liechtenstein extract imported as `npm run import:places`
// imports it, imagery on Vaduz's Städtle, and the page in Chromium at zoom 5, 12, 16 and 19: streets
// drawn and named along their lines, buildings, places thinned by min_zoom, no label under a marker,
// the coverage layer (density at the world's zooms, cells below 15, images from 15, a click listing the
// images at a spot), the sequences' lines at 12 to 16, and no note about missing street detail where the data is.
const CLI = resolve(__dirname, '..', '..', 'dist', 'src', 'cli', 'import-places.cli.js');
const OSM = resolve(__dirname, '..', 'fixtures', 'osm', 'liechtenstein.osm.pbf');
const STADTLE: [number, number] = [9.52157, 47.13906]; // Vaduz, Städtle, by the Landesmuseum
// A sequence of three photos eastwards, 60 m apart, 800 m east of the Städtle (out of view at zoom 18 there).
const SEQUENCE = 'e0000000-0000-4000-8000-000000000001';
const ROAD: Array<[number, number]> = [0, 1, 2].map((i) => [
  STADTLE[0] + 0.0106 + i * 0.0008,
  STADTLE[1] + (i % 2) * 0.0002,
]);
const LABEL_LAYERS = ['place-labels', 'street-labels', 'water-labels', 'country-labels', 'state-labels'];

jest.setTimeout(300_000);

function importPlaces(file: string): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, file, '--source', 'tiles-osm', '--country', 'LI'], {
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    child.on('close', done);
  });
}

describe('the map style on real tiles in Chromium', () => {
  let app: NestExpressApplication;
  let browser: Browser;
  let driver: PageDriver;
  const ids = [1, 2, 3, 4].map((n) => `f0000000-0000-4000-8000-00000000000${n}`);

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    expect(await importPlaces(OSM)).toBe(0);
    // Four images along the Städtle, 15 m apart, looking along it; the second a 360° panorama.
    const features = ids.map((id, i) =>
      feature(
        `Städtle ${10 + i}, 9490 Vaduz`,
        { id, image_url: `/demo-images/${id}.svg`, heading: 0, interactive: i === 1 },
        [STADTLE[0], STADTLE[1] + i * 0.000135],
      ),
    );
    expect((await importFixture(features, DEMO_SOURCE)).rejected).toBe(0);
    const photos = ROAD.map((at, i) =>
      feature(
        `Sequence ${i}, 9490 Vaduz`,
        { captured_at: '2024-05-0' + (i + 1), photo: photoDetails({ sequenceId: SEQUENCE, sequenceIndex: i }) },
        at,
      ),
    );
    expect((await importFixture(photos)).rejected).toBe(0);
    const served = await serveApp();
    app = served.app;
    browser = await launchBrowser();
    driver = new PageDriver(browser, served.base, await createKey(app, 'browser-map-tiles'));
  });

  afterEach(() => driver.closeAll());
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await resetPlaces();
  });

  const settle = async (page: Page, center: [number, number], zoom: number) => {
    await inPage(
      page,
      `new Promise((resolve) => { window.lisMap.once('idle', () => resolve()); window.lisMap.jumpTo({ center: [${center}], zoom: ${zoom} }); })`,
    );
    await page.waitForTimeout(400);
  };
  const rendered = (page: Page, layers: string[], box?: [[number, number], [number, number]]) =>
    inPage<{ layer: string; name?: string; id?: string; count?: number; min_zoom?: number }[]>(
      page,
      `(() => { const m = window.lisMap; const layers = ${JSON.stringify(layers)}.filter((l) => m.getLayer(l));
        return m.queryRenderedFeatures(${box ? JSON.stringify(box) : 'undefined'}, { layers })
          .map((f) => ({ layer: f.layer.id, ...f.properties })); })()`,
    );
  // Share of the map's pixels in a colour (streets are white on the cream land).
  const share = (page: Page, rgb: [number, number, number]) =>
    inPage<number>(
      page,
      `(() => { const m = window.lisMap; m.redraw(); const gl = m.getCanvas().getContext('webgl2') || m.getCanvas().getContext('webgl');
        const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight, px = new Uint8Array(w * h * 4);
        gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px); let n = 0;
        for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - ${rgb[0]}) < 3 && Math.abs(px[i + 1] - ${rgb[1]}) < 3 && Math.abs(px[i + 2] - ${rgb[2]}) < 3) n++;
        return n / (w * h); })()`,
    );
  const expectNoLabelUnderMarkers = async (page: Page) => {
    const canvas = (await page.locator('#map canvas').boundingBox())!;
    for (const dot of await page.locator('#map .marker-dot').all()) {
      const b = (await dot.boundingBox())!;
      const box: [[number, number], [number, number]] = [
        [b.x - canvas.x, b.y - canvas.y],
        [b.x - canvas.x + b.width, b.y - canvas.y + b.height],
      ];
      expect(await rendered(page, LABEL_LAYERS, box)).toEqual([]);
    }
  };

  it('draws streets, their names, buildings and places from world to doorstep, labels clear of markers', async () => {
    const { page, requests, errors, warnings } = await driver.open('/');
    await searchBy(page, async () => {
      await page.locator('#query').fill('Städtle');
      await page.locator('#query').press('Enter');
    });
    await page.locator('#map[data-camera="settled"][data-basemap="loaded"]').waitFor();

    await settle(page, STADTLE, 5);
    await screenshot(page, 'tiles-z5');
    // Places thin out by zoom: none shown before its min_zoom.
    for (const p of await rendered(page, ['place-labels'])) expect(p.min_zoom ?? 0).toBeLessThanOrEqual(5);

    await settle(page, STADTLE, 12);
    await screenshot(page, 'tiles-z12');
    // Vaduz's own label stands where the markers are (the Städtle is its centre) and gives way to them;
    // the towns around it are named.
    expect((await rendered(page, ['place-labels'])).map((p) => p.name)).toEqual(
      expect.arrayContaining(['Schaan', 'Triesen']),
    );
    expect((await rendered(page, ['streets'])).length).toBeGreaterThan(0);

    for (const zoom of [16, 19]) {
      await settle(page, STADTLE, zoom);
      await screenshot(page, `tiles-z${zoom}`);
      expect(await page.locator('#map').getAttribute('data-street-detail')).toBe('shown');
      expect(await page.locator('#map .map-note').isVisible()).toBe(false);
      expect(await share(page, [255, 255, 255])).toBeGreaterThan(0.02); // streets drawn
      expect((await rendered(page, ['buildings'])).length).toBeGreaterThan(0);
      await expectNoLabelUnderMarkers(page);
    }
    await settle(page, STADTLE, 17);
    // Streets are named along their lines; the Städtle itself is drawn, its name giving way to the
    // markers standing on it.
    expect((await rendered(page, ['street-labels'])).length).toBeGreaterThan(0);
    expect((await rendered(page, ['streets', 'paths'])).map((s) => s.name)).toContain('Städtle');

    const tiles = requests.filter((r) => new URL(r.url()).pathname.startsWith('/tiles/'));
    expect(tiles.length).toBeGreaterThan(0);
    // MapLibre cancels the tiles a zoom no longer needs (no response); every answered one succeeded.
    const statuses = (await Promise.all(tiles.map(async (r) => (await r.response())?.status()))).filter(
      (status) => status !== undefined,
    );
    expect(statuses).toContain(200);
    for (const status of statuses) expect([200, 204, 304]).toContain(status);
    expect(warnings.filter((w) => /glyph|image/i.test(w))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("shows coverage: density at the world's zooms, counts per cell from 9, each image from 15, and lists the images at a spot", async () => {
    const { page, errors } = await driver.open('/');
    await page.locator('#map[data-basemap="loaded"]').waitFor();
    const toggle = page.getByRole('button', { name: 'Coverage' });
    await toggle.click();

    // The world's zooms: the coverage as density, a blue tint over the spot, no numbered circles.
    await settle(page, STADTLE, 5);
    expect(await rendered(page, ['coverage-cells', 'coverage-counts'])).toEqual([]);
    const tinted = await mapPixel(page, STADTLE);
    await toggle.click();
    const plain = await mapPixel(page, STADTLE);
    await toggle.click();
    expect(tinted[2] - tinted[0]).toBeGreaterThan(plain[2] - plain[0] + 20);
    await screenshot(page, 'tiles-coverage-z5');

    await settle(page, STADTLE, 12);
    const cells = await rendered(page, ['coverage-cells']);
    // A cell near a tile edge may come from two tiles (buffer 64): at least the four images.
    expect(cells.reduce((sum, c) => sum + (c.count ?? 0), 0)).toBeGreaterThanOrEqual(4);
    await screenshot(page, 'tiles-coverage-z12');

    await settle(page, STADTLE, 18);
    const images = await rendered(page, ['coverage-points']);
    expect(images.map((i) => i.id).sort()).toEqual([...ids].sort());
    await screenshot(page, 'tiles-coverage-z18');

    const canvas = (await page.locator('#map canvas').boundingBox())!;
    const at = await inPage<{ x: number; y: number }>(page, `window.lisMap.project([${STADTLE}])`);
    await page.mouse.click(canvas.x + at.x, canvas.y + at.y);
    const popup = page.locator('.maplibregl-popup .coverage-list');
    await popup.waitFor();
    expect(await popup.locator('li').evaluateAll((els) => els.map((e: any) => e.dataset.id))).toEqual([ids[0]]);
    expect(await popup.locator('li').first().textContent()).toBe('2019-06-05 · facing 0°');
    expect(errors).toEqual([]);
  });

  it('draws a sequence as its line at zooms 12 to 16, and a click on it between its images lists it', async () => {
    const { page, errors } = await driver.open('/');
    await page.locator('#map[data-basemap="loaded"]').waitFor();
    await page.getByRole('button', { name: 'Coverage' }).click();
    for (const zoom of [12, 16]) {
      await settle(page, ROAD[1], zoom);
      const lines = await rendered(page, ['coverage-sequences']);
      expect({ zoom, ids: [...new Set(lines.map((l) => l.id))] }).toEqual({ zoom, ids: [SEQUENCE] });
    }
    await screenshot(page, 'tiles-sequences-z16');
    const middle: [number, number] = [(ROAD[0][0] + ROAD[1][0]) / 2, (ROAD[0][1] + ROAD[1][1]) / 2];
    const canvas = (await page.locator('#map canvas').boundingBox())!;
    const at = await inPage<{ x: number; y: number }>(page, `window.lisMap.project([${middle}])`);
    await page.mouse.click(canvas.x + at.x, canvas.y + at.y);
    const popup = page.locator('.maplibregl-popup .coverage-list');
    await popup.waitFor();
    expect(await popup.locator('li').evaluateAll((els) => els.map((e: any) => e.dataset.sequence))).toEqual([SEQUENCE]);
    expect(await popup.locator('li').first().textContent()).toBe('3 still images · newest 2024-05-03');
    await settle(page, ROAD[1], 18);
    expect(await rendered(page, ['coverage-sequences'])).toEqual([]);
    expect(errors).toEqual([]);
  });
});
