import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Page } from 'playwright-core';
import { Browser, launchBrowser, screenshot, serveApp } from '../helpers/browser';
import { createKey, feature, importFixture, resetImagery } from '../helpers/test-app';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { inPage, mapPixel, PageDriver, resultAddresses, searchBy } from './page-driver';

// The service's own map style in Chromium (MAP_STYLE_URL unset): Natural Earth and Noto Sans labels
// from the world view, records taken at one spot spread apart, labels giving way to markers, the
// Coverage toggle, and the note on street detail where no OpenStreetMap data was imported (this spec
// imports none), with screenshots at zoom 5, 12, 16 and 19.
const SPOT: [number, number] = [9.5215, 47.141]; // Vaduz
const SEA = [0xcf, 0xe3, 0xf1, 255];
const LAND = [0xf6, 0xf3, 0xec, 255];
const LABEL_LAYERS = ['country-labels', 'state-labels', 'place-labels', 'street-labels', 'water-labels'];
const countryLabel = (name: string): [number, number] => {
  const file = join(__dirname, '..', '..', 'dist', 'web', 'assets', 'basemap', 'country-labels.geojson');
  const labels = JSON.parse(readFileSync(file, 'utf8')) as {
    features: { properties: { name: string }; geometry: { coordinates: [number, number] } }[];
  };
  return labels.features.find((f) => f.properties.name === name)!.geometry.coordinates;
};

describe('the map style in Chromium', () => {
  let app: NestExpressApplication;
  let browser: Browser;
  let driver: PageDriver;

  beforeAll(async () => {
    await resetImagery();
    const demo = (n: number, heading: number) => ({
      id: `e0000000-0000-4000-8000-00000000000${n}`,
      image_url: `/demo-images/e0000000-0000-4000-8000-00000000000${n}.svg`,
      heading,
    });
    const features = [
      // Three images taken at one spot, looking three ways.
      feature('Kartenweg 1, 9490 Vaduz', demo(1, 0), SPOT),
      feature('Kartenweg 1, 9490 Vaduz', demo(2, 120), SPOT),
      feature('Kartenweg 1, 9490 Vaduz', demo(3, 240), SPOT),
      // One exactly where the world view names Austria, and two far apart to zoom the results out.
      feature('Kartenweg 4, Austria', demo(4, 90), countryLabel('Austria')),
      feature('Kartenweg 5, 8001 Zürich', demo(5, 180), [8.5417, 47.3769]),
      feature('Kartenweg 6, 80331 München', demo(6, 270), [11.5755, 48.1372]),
    ];
    expect((await importFixture(features, DEMO_SOURCE)).rejected).toBe(0);
    const served = await serveApp();
    app = served.app;
    browser = await launchBrowser();
    driver = new PageDriver(browser, served.base, await createKey(app, 'browser-map-style'));
  }, 60_000);

  afterEach(() => driver.closeAll());
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  // Every tile in view loaded and the labels placed (their fade-in is 300 ms). The promises resolve to
  // nothing: handing the page's `idle` event (and the whole map in it) back to the test takes seconds.
  const idle = async (page: Page) => {
    await inPage(
      page,
      `new Promise((resolve) => { const m = window.lisMap; if (m.loaded() && !m.isMoving()) resolve(); else m.once('idle', () => resolve()); })`,
    );
    await page.waitForTimeout(400);
  };
  const settle = async (page: Page, center: [number, number], zoom: number) => {
    await inPage(
      page,
      `new Promise((resolve) => { window.lisMap.once('idle', () => resolve()); window.lisMap.jumpTo({ center: [${center}], zoom: ${zoom} }); })`,
    );
    await page.waitForTimeout(400);
  };
  const rendered = (page: Page, layers: string[], box?: [[number, number], [number, number]]) =>
    inPage<{ layer: string; name: string }[]>(
      page,
      `(() => { const m = window.lisMap; const layers = ${JSON.stringify(layers)}.filter((l) => m.getLayer(l));
        return m.queryRenderedFeatures(${box ? JSON.stringify(box) : 'undefined'}, { layers })
          .map((f) => ({ layer: f.layer.id, name: f.properties.name })); })()`,
    );
  // The marker dots' boxes in the map canvas's pixels.
  const dots = async (page: Page) => {
    const canvas = (await page.locator('#map canvas').boundingBox())!;
    const boxes = await Promise.all((await page.locator('#map .marker-dot').all()).map((d) => d.boundingBox()));
    return boxes.map((b) => ({ x: b!.x - canvas.x, y: b!.y - canvas.y, width: b!.width, height: b!.height }));
  };
  const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const expectMarkersDistinctAndClear = async (page: Page) => {
    const boxes = await dots(page);
    expect(boxes).toHaveLength(6);
    const visible = boxes.filter((b) => b.x > 0 && b.y > 0 && b.x < 880 && b.y < 780);
    for (let i = 0; i < visible.length; i++)
      for (let j = i + 1; j < visible.length; j++) expect(overlap(visible[i], visible[j])).toBe(false);
    for (const b of visible)
      expect(
        await rendered(page, LABEL_LAYERS, [
          [b.x, b.y],
          [b.x + b.width, b.y + b.height],
        ]),
      ).toEqual([]);
    return visible.length;
  };

  it("draws the world from the service's own style: Natural Earth, country names in Noto Sans from its glyphs", async () => {
    const { page, requests, errors, warnings } = await driver.open('/');
    await page.locator('#map[data-style="Location Imagery Search"][data-basemap="loaded"]').waitFor();
    await settle(page, [9.5, 46.5], 5);
    const names = (await rendered(page, ['country-labels'])).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['Switzerland', 'Austria', 'Italy']));
    const fonts = requests.filter((r) => new URL(r.url()).pathname.startsWith('/map/fonts/'));
    expect(fonts.map((r) => decodeURIComponent(new URL(r.url()).pathname))).toContain(
      '/map/fonts/Noto Sans Medium/0-255.pbf',
    );
    for (const r of fonts) expect((await r.response())?.status()).toBe(200);
    // Pixels: land and sea in their colours.
    expect(await mapPixel(page, [8.6, 43.6])).toEqual(SEA); // the Ligurian Sea
    expect(await mapPixel(page, [10.8, 44.9])).toEqual(LAND); // the Po valley
    await screenshot(page, 'map-style-z5-world');
    // The glyphs were read, not replaced by the browser's own font ("Unable to load glyph range").
    expect(warnings.filter((w) => /glyph/i.test(w))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("draws land under a city at city zooms, where the world view's coast is kilometres off (Manhattan, Copenhagen, Venice)", async () => {
    const { page, errors } = await driver.open('/');
    await page.locator('#map[data-style="Location Imagery Search"][data-basemap="loaded"]').waitFor();
    // Each lies in the sea of Natural Earth's 1:50m land.
    const cities: Array<[string, [number, number]]> = [
      ['Midtown Manhattan', [-73.9857, 40.7484]],
      ['Wall Street', [-74.009, 40.7061]],
      ['Copenhagen', [12.57, 55.68]],
      ['Venice', [12.3358, 45.4408]],
    ];
    for (const [name, at] of cities)
      for (const zoom of [10, 13, 16]) {
        await settle(page, at, zoom);
        expect({ name, zoom, colour: await mapPixel(page, at) }).toEqual({ name, zoom, colour: LAND });
      }
    // The open sea is still the sea at the world's zooms.
    await settle(page, [-71, 39], 5);
    expect(await mapPixel(page, [-71, 39])).toEqual(SEA);
    expect(errors).toEqual([]);
  });

  it('spreads records taken at one spot, keeps labels clear of markers, and says where street detail comes from: zoom 5, 12, 16, 19', async () => {
    const { page, errors } = await driver.open('/');
    await searchBy(page, async () => {
      await page.locator('#query').fill('Kartenweg');
      await page.locator('#query').press('Enter');
    });
    expect(await resultAddresses(page)).toHaveLength(6);
    await page.locator('#map[data-camera="settled"][data-basemap="loaded"]').waitFor();
    await idle(page);
    // Fitted to all six (Zürich to München): a zoom where the world view names Austria, at whose
    // label point one record stands. The label gives way to the marker.
    expect(await expectMarkersDistinctAndClear(page)).toBe(6);
    await screenshot(page, 'map-style-results');

    for (const zoom of [5, 12, 16, 19]) {
      await settle(page, SPOT, zoom);
      expect(await expectMarkersDistinctAndClear(page)).toBeGreaterThanOrEqual(zoom === 5 ? 5 : 3);
      // No OpenStreetMap data here: from zoom 13 the map says where street detail would come from.
      const note = page.locator('#map .map-note');
      expect(await note.isVisible()).toBe(zoom >= 13);
      if (zoom >= 13) expect(await note.textContent()).toContain('npm run import:places');
      await screenshot(page, `map-style-z${zoom}`);
    }
    // The three at the spot, spread on a ring around it, each with a leader back to it.
    expect(await page.locator('#map .marker-leader').count()).toBe(3);
    expect(errors).toEqual([]);
  });

  it('keeps labels clear of the pin at a searched coordinate', async () => {
    // Coordinates where the world view names Czechia (no imagery there), searched within 50 km: a zoom
    // that names countries.
    const [lon, lat] = countryLabel('Czechia');
    const query = `${lat.toFixed(4)}, ${lon.toFixed(4)}`;
    const { page, errors } = await driver.open(`/?query=${encodeURIComponent(query)}&radius_m=50000`);
    await page.locator('#empty:not([hidden])').waitFor();
    await page.locator('#map[data-camera="settled"][data-basemap="loaded"]').waitFor();
    await idle(page);
    const canvas = (await page.locator('#map canvas').boundingBox())!;
    const pin = (await page.locator('#map .search-pin').boundingBox())!;
    expect(
      await rendered(page, LABEL_LAYERS, [
        [pin.x - canvas.x, pin.y - canvas.y],
        [pin.x - canvas.x + pin.width, pin.y - canvas.y + pin.height],
      ]),
    ).toEqual([]);
    // Czechia is still named, beside the pin, or left out; never under it.
    await screenshot(page, 'map-style-search-pin');
    expect(errors).toEqual([]);
  });

  it('toggles the coverage layer', async () => {
    const { page, errors } = await driver.open('/');
    await page.locator('#map[data-basemap="loaded"]').waitFor();
    const toggle = page.getByRole('button', { name: 'Coverage' });
    const visibility = () =>
      inPage<string[]>(
        page,
        `window.lisMap.getStyle().metadata['lis:coverage-layers'].map((id) => window.lisMap.getLayoutProperty(id, 'visibility'))`,
      );
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(new Set(await visibility())).toEqual(new Set(['none']));
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#map').getAttribute('data-coverage')).toBe('shown');
    expect(new Set(await visibility())).toEqual(new Set(['visible']));
    await toggle.click();
    expect(new Set(await visibility())).toEqual(new Set(['none']));
    expect(errors).toEqual([]);
  });
});
