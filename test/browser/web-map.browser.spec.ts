import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Browser, launchBrowser, screenshot, serveApp } from '../helpers/browser';
import { createKey, feature, importFixture, resetImagery } from '../helpers/test-app';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { inPage, PageDriver, resultAddresses, searchBy, searches } from './page-driver';

// The map and coordinate searches in Chromium against the real app: the offer to widen a coordinate
// search to the nearest imagery, the pin at the point searched, zooming to the doorstep on the
// service's own style, and MAP_STYLE_URL.
// One record 402 m from the point searched (as the demo's Beverly Hills 90209 is from 34.07, -118.40).
const NEAREST = {
  id: 'd0000000-0000-4000-8000-000000000001',
  address: 'Beverly Hills, CA 90209, United States',
  lat: 34.0736,
  lon: -118.4004,
};
const POINT = '34.07, -118.40';
const STYLE_NAME = 'Operator test style';

describe('web page map in Chromium', () => {
  let app: NestExpressApplication;
  let styled: NestExpressApplication;
  let styleServer: Server;
  let styleUrl: string;
  let browser: Browser;
  let driver: PageDriver;
  let styledDriver: PageDriver;

  beforeAll(async () => {
    await resetImagery();
    const demo = { id: NEAREST.id, image_url: `/demo-images/${NEAREST.id}.svg`, heading: 270 };
    expect(
      (await importFixture([feature(NEAREST.address, demo, [NEAREST.lon, NEAREST.lat])], DEMO_SOURCE)).rejected,
    ).toBe(0);
    // An operator's style on another origin: a plain background, so nothing else is fetched for it.
    const style = {
      version: 8,
      name: STYLE_NAME,
      sources: {},
      layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#e8e4da' } }],
    };
    styleServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify(style));
    });
    await new Promise<void>((resolve) => styleServer.listen(0, '127.0.0.1', resolve));
    styleUrl = `http://127.0.0.1:${(styleServer.address() as AddressInfo).port}/styles/test/style.json`;
    const plain = await serveApp();
    app = plain.app;
    const other = await serveApp({ mapStyleUrl: styleUrl });
    styled = other.app;
    browser = await launchBrowser();
    driver = new PageDriver(browser, plain.base, await createKey(app, 'browser-map'));
    styledDriver = new PageDriver(browser, other.base, await createKey(styled, 'browser-map-styled'));
  }, 60_000);

  afterEach(async () => {
    await driver.closeAll();
    await styledDriver.closeAll();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await styled?.close();
    await new Promise((resolve) => styleServer?.close(resolve));
  });

  // The pin stands on the point searched: its foot (the element's bottom centre) is that point on screen.
  const expectPinAt = async (page: Awaited<ReturnType<PageDriver['open']>>['page'], lat: number, lon: number) => {
    const pin = page.locator('#map .search-pin');
    expect(await pin.count()).toBe(1);
    const at = await inPage<{ x: number; y: number }>(page, `window.lisMap.project([${lon}, ${lat}])`);
    const canvas = (await page.locator('#map canvas').boundingBox())!;
    const box = (await pin.boundingBox())!;
    // Rotated 45°: its bounding box is wider than the element; the foot is its bottom centre.
    expect(Math.abs(box.x + box.width / 2 - (canvas.x + at.x))).toBeLessThan(3);
    expect(Math.abs(box.y + box.height - (canvas.y + at.y))).toBeLessThan(6);
  };

  const zoomOf = async (page: Awaited<ReturnType<PageDriver['open']>>['page']) =>
    Number(await page.locator('#map').getAttribute('data-zoom'));

  it('coordinates with nothing within 250 m: says how far the nearest imagery is, and widens the radius to it', async () => {
    const { page, requests, errors } = await driver.open(`/?query=${encodeURIComponent(POINT)}`);
    await page.locator('#empty:not([hidden])').waitFor();
    expect(searches(requests).at(-1)).toEqual({
      query: POINT,
      limit: 10,
      page: 1,
      include: ['place', 'interpretation', 'match'],
    });
    expect(await page.locator('#empty-title').textContent()).toBe(`No imagery within 250 m of “${POINT}”`);
    expect(await page.locator('#empty-hint').textContent()).toBe('Nearest imagery is 402 m away.');
    const widen = page.locator('#empty-widen');
    expect(await widen.textContent()).toBe('Search within 410 m');
    // The map goes to the circle searched, though nothing was found in it, with a pin at its centre.
    await page.locator('#map[data-camera="settled"]').waitFor();
    expect(await zoomOf(page)).toBeGreaterThan(14);
    expect(await zoomOf(page)).toBeLessThanOrEqual(16);
    await expectPinAt(page, 34.07, -118.4);
    // The circle searched is drawn, though the search answered before the style had loaded.
    await page.locator('#map[data-basemap="loaded"]').waitFor();
    expect(await inPage<number>(page, "window.lisMap.querySourceFeatures('near').length")).toBeGreaterThan(0);
    await page.locator('#map[data-basemap="loaded"]').waitFor();
    await screenshot(page, 'nearest-imagery');

    const result = await searchBy(page, () => widen.click());
    expect(result.request).toEqual({
      query: POINT,
      limit: 10,
      page: 1,
      near: { radius_m: 410 },
      include: ['place', 'interpretation', 'match'],
    });
    expect(await resultAddresses(page)).toEqual([NEAREST.address]);
    expect(await page.locator('#empty').isHidden()).toBe(true);
    expect(new URL(page.url()).searchParams.get('radius_m')).toBe('410');
    expect(new URL(page.url()).searchParams.has('near')).toBe(false);
    // Another query drops the radius (the API takes a radius alone only around coordinates): both the
    // suggestions asked for while typing and the full search.
    const [suggestion] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/search' && r.request().postDataJSON()?.limit === 5),
      page.locator('#query').fill('Beverly Hills'),
    ]);
    expect(suggestion.status()).toBe(200);
    expect(suggestion.request().postDataJSON()).toEqual({ query: 'Beverly Hills', limit: 5, page: 1 });
    const text = await searchBy(page, () => page.locator('#query').press('Enter'));
    expect(text.request).toEqual({
      query: 'Beverly Hills',
      limit: 10,
      page: 1,
      include: ['place', 'interpretation', 'match'],
    });
    expect(errors).toEqual([]);
  });

  it("zooms to the doorstep on the service's own style: to street level for a result, up to 20 by hand", async () => {
    const { page, errors } = await driver.open(`/?query=${encodeURIComponent(POINT)}&radius_m=500`);
    await page.locator('#map[data-camera="settled"]').waitFor();
    expect(await page.locator('#map').getAttribute('data-max-zoom')).toBe('20');
    expect(await page.locator('#map').getAttribute('data-style')).toBe('Location Imagery Search');
    expect(await zoomOf(page)).toBeGreaterThan(14);
    await page.locator('.result-address').first().click();
    const still = () =>
      page.waitForFunction(
        () => !(globalThis as unknown as { lisMap: { isMoving(): boolean } }).lisMap.isMoving(),
        null,
        {
          timeout: 15_000,
        },
      );
    await page.waitForTimeout(300);
    await still();
    await page.locator('#map canvas').focus();
    // One step at a time, each once the map is still: a key pressed mid-animation restarts the ease
    // from where it is, so a busy machine would lose steps pressed in a burst.
    for (let i = 0; i < 10 && (await zoomOf(page)) < 19.5; i++) {
      await page.keyboard.press('+');
      await page.waitForTimeout(100);
      await still();
    }
    const zoom = await inPage<number>(page, 'window.lisMap.getZoom()');
    expect(zoom).toBeGreaterThan(18);
    expect(zoom).toBeLessThanOrEqual(20);
    await page.locator('#map[data-basemap="loaded"]').waitFor();
    await screenshot(page, 'zoom-doorstep');
    expect(errors).toEqual([]);
  });

  it("shows the operator's style from MAP_STYLE_URL instead of the basemap, and zooms to street level on it", async () => {
    const { page, requests, errors } = await styledDriver.open(`/?query=${encodeURIComponent(POINT)}&radius_m=500`);
    await page.locator(`#map[data-style="${STYLE_NAME}"]`).waitFor();
    await page.locator('#map[data-camera="settled"]').waitFor();
    expect(requests.map((r) => r.url())).toContain(styleUrl);
    expect(requests.filter((r) => r.url().includes('/assets/basemap/'))).toEqual([]);
    expect(await page.locator('#map').getAttribute('data-max-zoom')).toBe('18');
    // Fitted to the 500 m circle searched: street level, past the offline basemap's cap.
    expect(await zoomOf(page)).toBeGreaterThan(14);
    expect(await zoomOf(page)).toBeLessThanOrEqual(16);
    expect(await resultAddresses(page)).toEqual([NEAREST.address]);
    // Without MAP_STYLE_URL the page shows the service's own style.
    const own = await driver.open('/');
    await own.page.locator('#map[data-style="Location Imagery Search"]').waitFor();
    expect(own.requests.map((r) => new URL(r.url()).pathname)).toContain('/map/style.json');
    expect(errors).toEqual([]);
  });
});
