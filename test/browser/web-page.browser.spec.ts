import { NestExpressApplication } from '@nestjs/platform-express';
import type { Page, Request } from 'playwright-core';
import { Browser, launchBrowser, screenshot, serveApp } from '../helpers/browser';
import { createKey, importFixture, resetImagery } from '../helpers/test-app';
import { streetFeatures, streetFixture } from '../helpers/web-fixtures';
import { WebPageService } from '../../src/web-page/web-page.service';

// The page in a real browser against the real app: typing, suggestions, results, the map, paging,
// filters and shared URLs, as a person uses it.
const records = streetFixture();
const byAddress = new Map(records.map((r) => [r.address, r]));

describe('web page in Chromium', () => {
  let app: NestExpressApplication;
  let base: string;
  let key: string;
  let browser: Browser;
  const opened: Page[] = [];

  beforeAll(async () => {
    await resetImagery();
    await importFixture(streetFeatures(records));
    ({ app, base } = await serveApp());
    key = await createKey(app, 'browser');
    browser = await launchBrowser();
  }, 60_000);

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((p) => p.close()));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  // A page with the key already remembered, collecting every request and browser error.
  async function open(path = '/', options: { key?: string | null; width?: number } = {}) {
    const page = await browser.context.newPage();
    opened.push(page);
    if (options.width) await page.setViewportSize({ width: options.width, height: 844 });
    const storedKey = options.key === undefined ? key : options.key;
    await page.addInitScript(storedKey === null ? 'localStorage.clear()' : `localStorage.setItem('lis.apiKey', ${JSON.stringify(storedKey)})`);
    const requests: Request[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${base}${path}`);
    await page.locator('body[data-ready="true"]').waitFor();
    return { page, requests, errors };
  }

  const searches = (requests: Request[]) =>
    requests.filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/search').map((r) => r.postDataJSON());

  // Runs an action and waits for the full search (limit 10) it starts, and for the page to show it.
  async function searchBy(page: Page, action: () => Promise<unknown>) {
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/search' && r.request().postDataJSON()?.limit === 10),
      action(),
    ]);
    await page.locator('body:not(.is-busy)').waitFor();
    return { request: response.request().postDataJSON(), body: await response.json() };
  }

  const resultAddresses = (page: Page) => page.locator('.result .result-address').allTextContents();
  const markerIds = (page: Page) => page.locator('#map .marker').evaluateAll((els) => els.map((e: any) => e.dataset.id as string));

  it('serves the page without a key, loads everything from this service, and asks for a key', async () => {
    const { page, requests, errors } = await open('/', { key: null });
    await page.locator('#map[data-basemap]').waitFor();
    expect(await page.title()).toBe('Location Imagery Search');
    expect(await page.locator('#key-panel').getAttribute('open')).not.toBeNull();
    expect(await page.locator('#status').textContent()).toMatch(/Add an API key/);
    expect(await page.locator('#map canvas').count()).toBe(1);
    // No CDN, no external fonts or tiles: every request goes to this service.
    const foreign = requests.map((r) => r.url()).filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(foreign).toEqual([]);
    expect(requests.some((r) => r.url().endsWith('/assets/basemap/countries-50m.json'))).toBe(true);
    expect(errors).toEqual([]);
    await screenshot(page, 'no-key');
  });

  it('remembers a typed key in this browser', async () => {
    const { page } = await open('/', { key: null });
    await page.locator('#api-key').fill(key);
    await page.locator('#key-form button[type="submit"]').click();
    expect(await page.locator('#key-panel').getAttribute('open')).toBeNull();
    expect(await inPage(page, "localStorage.getItem('lis.apiKey')")).toBe(key);
    const again = await browser.context.newPage();
    opened.push(again);
    await again.goto(base);
    await again.locator('body[data-ready="true"]').waitFor();
    expect(await again.locator('#api-key').inputValue()).toBe(key);
    expect(await again.locator('#key-summary').textContent()).toBe('API key');

    // The panel opens from its button and closes with Escape, focus back on the button.
    await again.locator('#key-panel > summary').click();
    expect(await inPage(again, 'document.activeElement?.id')).toBe('api-key');
    await again.keyboard.press('Escape');
    expect(await again.locator('#key-panel').getAttribute('open')).toBeNull();
    expect(await inPage(again, 'document.activeElement?.tagName')).toBe('SUMMARY');
  });

  it('suggests as you type (debounced, five at most) and the keyboard picks one', async () => {
    const { page } = await open();
    // Timestamps of keystrokes and of search calls, taken in the page itself.
    await page.evaluate(`(() => {
      window.__log = { inputs: [], searches: [] };
      document.addEventListener('input', () => window.__log.inputs.push(performance.now()), true);
      const original = window.fetch;
      window.fetch = function (url, init) {
        if (String(url).endsWith('/search')) window.__log.searches.push({ t: performance.now(), body: JSON.parse(init.body) });
        return original.apply(this, arguments);
      };
    })()`);
    const input = page.locator('#query');
    await input.pressSequentially('Bergstrasse 1', { delay: 20 });
    await page.locator('#suggestions:not([hidden]) [role="option"]').first().waitFor();
    const options = page.locator('#suggestions [role="option"]');
    expect(await options.count()).toBe(5);

    // Debounced: a suggestion request only goes out after typing paused for 200 ms, so there are
    // never more requests than pauses, however fast or slow this machine typed.
    const log = await inPage<{ inputs: number[]; searches: { t: number; body: any }[] }>(page, 'window.__log');
    expect(log.inputs).toHaveLength('Bergstrasse 1'.length);
    const calls = log.searches;
    expect(calls.length).toBeGreaterThanOrEqual(1);
    for (const call of calls) {
      expect(call.body.limit).toBe(5);
      const lastInput = Math.max(...log.inputs.filter((t) => t <= call.t));
      expect(call.t - lastInput).toBeGreaterThanOrEqual(190);
    }
    const pauses = log.inputs.slice(1).filter((t, i) => t - log.inputs[i] >= 190).length;
    expect(calls.length).toBeLessThanOrEqual(pauses + 1);
    expect(calls[calls.length - 1].body).toEqual({ query: 'Bergstrasse 1', limit: 5, page: 1 });
    expect(await input.getAttribute('aria-expanded')).toBe('true');

    await input.press('ArrowDown');
    await input.press('ArrowDown');
    expect(await input.getAttribute('aria-activedescendant')).toBe('suggestion-1');
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    const picked = (await options.nth(1).locator('.suggestion-address').textContent())!;
    const { request, body } = await searchBy(page, () => input.press('Enter'));
    expect(request).toEqual({ query: picked, limit: 10, page: 1 });
    expect(await input.inputValue()).toBe(picked);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(body.data[0].address).toBe(picked);
    expect((await resultAddresses(page))[0]).toBe(picked);

    await input.fill('Bergs');
    await page.locator('#suggestions:not([hidden])').waitFor();
    await input.press('Escape');
    expect(await page.locator('#suggestions').isHidden()).toBe(true);
  });

  it('shows full results: address, date, compass with heading arrow, badge, thumbnail, and a marker each', async () => {
    const { page, errors } = await open();
    await page.locator('#query').fill('Bergstrasse');
    const { body } = await searchBy(page, () => page.locator('#search-form button[type="submit"]').click());
    expect(body.pageTotal).toBe(3);

    const items = page.locator('.result');
    expect(await items.count()).toBe(10);
    for (let i = 0; i < 10; i++) {
      const item = items.nth(i);
      const address = (await item.locator('.result-address').textContent())!;
      const record = byAddress.get(address)!;
      expect(record).toBeDefined();
      expect(await item.getAttribute('data-id')).toBe(record.id);
      expect(await item.locator('.result-number').textContent()).toBe(String(i + 1));
      expect(await item.locator('.meta-date').textContent()).toBe(record.date);
      expect(await item.locator('.meta-compass').textContent()).toBe(record.compass);
      const heading = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'].indexOf(/\((\w+)\)/.exec(record.compass)![1]) * 45;
      expect(await item.locator('.compass-rose').evaluate((e: any) => e.style.getPropertyValue('--heading'))).toBe(`${heading}deg`);
      expect(await item.locator('.badge').textContent()).toBe(record.interactive ? '360° interactive' : 'Still image');
      // The demo image drawn by this service, really loaded.
      const img = item.locator('.thumb img');
      expect(await img.getAttribute('src')).toBe(`${base}/demo-images/${record.id}.svg`);
      await page.waitForFunction((el: any) => el.complete && el.naturalWidth > 0, await img.elementHandle(), { timeout: 10_000 });
    }
    expect(await page.locator('.thumb-missing').count()).toBe(0);

    const ids = await items.evaluateAll((els) => els.map((e: any) => e.dataset.id as string));
    expect((await markerIds(page)).sort()).toEqual([...ids].sort());
    expect(await page.locator('#map .marker-interactive').count()).toBe(body.data.filter((r: any) => r.interactive).length);
    expect(await page.locator('#page-info').textContent()).toBe('Page 1 of 3');
    expect(await page.locator('#status').textContent()).toBe('Results 1–10 for “Bergstrasse”, page 1 of 3.');
    // The map zoomed to the results: every marker is inside the visible map.
    await page.locator('#map[data-camera="settled"]').waitFor();
    const map = (await page.locator('#map').boundingBox())!;
    for (const box of await Promise.all((await page.locator('#map .marker').all()).map((m) => m.boundingBox()))) {
      expect(box!.x).toBeGreaterThanOrEqual(map.x);
      expect(box!.x + box!.width).toBeLessThanOrEqual(map.x + map.width);
      expect(box!.y).toBeGreaterThanOrEqual(map.y);
      expect(box!.y + box!.height).toBeLessThanOrEqual(map.y + map.height);
    }
    expect(errors).toEqual([]);
    await screenshot(page, 'results');
  });

  it('hovering a result highlights its marker, and hovering a marker highlights its result', async () => {
    const { page } = await open('/?query=Bergstrasse');
    await page.locator('#map[data-camera="settled"]').waitFor();
    const third = page.locator('.result').nth(2);
    const thirdId = (await third.getAttribute('data-id'))!;
    await third.hover();
    expect(await page.locator(`#map .marker.is-active`).evaluateAll((els) => els.map((e: any) => e.dataset.id))).toEqual([thirdId]);
    expect(await third.getAttribute('class')).toMatch(/is-active/);

    const seventhId = (await page.locator('.result').nth(6).getAttribute('data-id'))!;
    await page.locator(`#map .marker[data-id="${seventhId}"] .marker-dot`).hover();
    expect(await page.locator('.result.is-active').evaluateAll((els) => els.map((e: any) => e.dataset.id))).toEqual([seventhId]);
    expect(await page.locator(`#map .marker[data-id="${seventhId}"]`).getAttribute('class')).toMatch(/is-active/);
    await screenshot(page, 'hover');

    // Keyboard focus does the same as hovering.
    await page.locator('.result').nth(4).locator('.result-address').focus();
    const fifthId = (await page.locator('.result').nth(4).getAttribute('data-id'))!;
    expect(await page.locator('#map .marker.is-active').evaluateAll((els) => els.map((e: any) => e.dataset.id))).toEqual([fifthId]);
  });

  it('pages through the results; the URL follows and Back returns', async () => {
    const { page } = await open('/?query=Bergstrasse');
    await page.locator('.result').nth(9).waitFor();
    const first = await resultAddresses(page);

    const second = await searchBy(page, () => page.locator('#next-page').click());
    expect(second.request).toEqual({ query: 'Bergstrasse', limit: 10, page: 2 });
    expect(await page.locator('#page-info').textContent()).toBe('Page 2 of 3');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(await page.locator('.result .result-number').first().textContent()).toBe('11');
    const secondAddresses = await resultAddresses(page);
    expect(secondAddresses.filter((a) => first.includes(a))).toEqual([]);
    expect(await inPage(page, 'document.activeElement?.id')).toBe('results-heading');

    await searchBy(page, () => page.locator('#next-page').click());
    expect(await page.locator('#page-info').textContent()).toBe('Page 3 of 3');
    expect(await page.locator('.result').count()).toBe(5);
    expect(await page.locator('#next-page').isDisabled()).toBe(true);
    const all = [...first, ...secondAddresses, ...(await resultAddresses(page))];
    expect(new Set(all).size).toBe(25);

    await searchBy(page, () => page.goBack());
    expect(await page.locator('#page-info').textContent()).toBe('Page 2 of 3');
    expect(await resultAddresses(page)).toEqual(secondAddresses);
    await searchBy(page, () => page.locator('#prev-page').click());
    expect(await page.locator('#prev-page').isDisabled()).toBe(true);
    expect(await resultAddresses(page)).toEqual(first);
  });

  it('reloads a shared URL into the same search', async () => {
    const { page } = await open('/?query=Bergstrasse&page=2');
    await page.locator('.result').nth(9).waitFor();
    const shown = await resultAddresses(page);
    const url = page.url();

    const other = await open(new URL(url).pathname + new URL(url).search);
    await other.page.locator('.result').nth(9).waitFor();
    expect(await other.page.locator('#query').inputValue()).toBe('Bergstrasse');
    expect(await other.page.locator('#page-info').textContent()).toBe('Page 2 of 3');
    expect(await resultAddresses(other.page)).toEqual(shown);

    await searchBy(other.page, () => other.page.reload());
    expect(await resultAddresses(other.page)).toEqual(shown);
  });

  it('filters by date, interactive, facing and the map centre; the URL carries them and reloads them', async () => {
    const { page } = await open('/?query=Bergstrasse');
    await page.locator('.result').first().waitFor();
    await page.locator('#filters > summary').click();

    let result = await searchBy(page, () => page.locator('label[for="facing-W"]').click());
    expect(result.request).toEqual({ query: 'Bergstrasse', limit: 10, page: 1, facing: 'W' });
    const west = records.filter((r) => r.compass.endsWith('(W)'));
    expect((await resultAddresses(page)).sort()).toEqual(west.map((r) => r.address).sort());
    expect(new URL(page.url()).searchParams.get('facing')).toBe('W');
    expect(await page.locator('#filter-count').textContent()).toBe('1');

    await page.locator('label[for="facing-any"]').click();
    await page.locator('body:not(.is-busy)').waitFor();
    result = await searchBy(page, () => page.locator('#interactive').selectOption('true'));
    expect(result.request.interactive).toBe(true);
    expect(await page.locator('.badge').allTextContents()).toEqual(Array(result.body.data.length).fill('360° interactive'));
    expect(result.body.data.length).toBe(records.filter((r) => r.interactive).length);

    await searchBy(page, () => page.locator('#captured-after').fill('2015-01-01'));
    result = await searchBy(page, () => page.locator('#captured-before').fill('2018-12-31'));
    expect(result.request).toMatchObject({ captured_after: '2015-01-01', captured_before: '2018-12-31', interactive: true });
    const expected = records.filter((r) => r.interactive && r.capturedAt >= '2015-01-01' && r.capturedAt <= '2018-12-31');
    expect(expected.length).toBeGreaterThan(0);
    expect((await resultAddresses(page)).sort()).toEqual(expected.map((r) => r.address).sort());

    // Near the map centre: the centre of the map as it is, with the chosen radius.
    await page.locator('#interactive').selectOption('');
    await page.locator('body:not(.is-busy)').waitFor();
    await page.locator('#captured-after').fill('');
    await page.locator('body:not(.is-busy)').waitFor();
    await page.locator('#captured-before').fill('');
    await page.locator('body:not(.is-busy)').waitFor();
    await page.locator('#near-radius').selectOption('250');
    await page.locator('body:not(.is-busy)').waitFor();
    result = await searchBy(page, () => page.locator('#near-enabled').check());
    const near = result.request.near;
    expect(near.radius_m).toBe(250);
    const centre = new URL(page.url()).searchParams.get('near')!.split(',').map(Number);
    expect(centre).toEqual([near.lat, near.lon]);
    const within = records.filter((r) => metres(near, r) <= 250);
    expect(within.length).toBeGreaterThan(0);
    expect(within.length).toBeLessThanOrEqual(10); // all on the first page, whatever their order
    expect((await resultAddresses(page)).sort()).toEqual(within.map((r) => r.address).sort().slice(0, 10));

    // Moving the map offers to search the new centre.
    expect(await page.locator('#search-here').isHidden()).toBe(true);
    const box = (await page.locator('#map').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 150, box.y + box.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    await page.locator('#search-here:not([hidden])').waitFor();
    result = await searchBy(page, () => page.locator('#search-here').click());
    expect(result.request.near.radius_m).toBe(250);
    expect(result.request.near.lon).toBeGreaterThan(near.lon);
    expect(await page.locator('#search-here').isHidden()).toBe(true);
    const movedWithin = records.filter((r) => metres(result.request.near, r) <= 250);
    expect(movedWithin.length).toBeLessThanOrEqual(10);
    expect((await resultAddresses(page)).sort()).toEqual(movedWithin.map((r) => r.address).sort().slice(0, 10));
    const movedNear = result.request.near;

    await page.locator('label[for="facing-N"]').click();
    await page.locator('body:not(.is-busy)').waitFor();
    const filtered = await resultAddresses(page);
    const shared = new URL(page.url());
    expect(Object.fromEntries(shared.searchParams)).toMatchObject({ query: 'Bergstrasse', facing: 'N', radius_m: '250' });
    await screenshot(page, 'filters');

    const again = await open(shared.pathname + shared.search);
    await again.page.locator('body:not(.is-busy)').waitFor();
    expect(await again.page.locator('#facing-N').isChecked()).toBe(true);
    expect(await again.page.locator('#near-enabled').isChecked()).toBe(true);
    expect(await again.page.locator('#near-radius').inputValue()).toBe('250');
    expect(await again.page.locator('#filters').getAttribute('open')).not.toBeNull();
    expect(await resultAddresses(again.page)).toEqual(filtered);
    expect(searches(again.requests).at(-1)).toEqual({ query: 'Bergstrasse', limit: 10, page: 1, facing: 'N', near: movedNear });
  });

  it('reports a key the API refuses and opens the key panel', async () => {
    const { page } = await open('/?query=Bergstrasse', { key: 'lis_not-a-real-key-000000000000000000000000' });
    await page.locator('#status[data-kind="error"]').waitFor();
    expect(await page.locator('#status').textContent()).toMatch(/API key/);
    expect(await page.locator('#key-panel').getAttribute('open')).not.toBeNull();
    expect(await page.locator('.result').count()).toBe(0);
  });

  it('works from the keyboard: skip link, visible focus', async () => {
    const { page } = await open('/?query=Bergstrasse');
    await page.locator('.result').first().waitFor();
    await page.keyboard.press('Tab'); // nothing has focus yet: the first stop is the skip link
    expect(await inPage(page, 'document.activeElement?.className')).toBe('skip-link');
    const skip = (await page.locator('.skip-link').boundingBox())!;
    expect(skip.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await inPage(page, 'document.activeElement?.id')).toBe('results-heading');

    await page.locator('#query').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await page.locator('#query').evaluate((e: any) => e.ownerDocument.defaultView.getComputedStyle(e).boxShadow);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Tab');
    const buttonOutline = await page.locator('#search-form button[type="submit"]').evaluate((e: any) => e.ownerDocument.defaultView.getComputedStyle(e).outlineStyle);
    expect(buttonOutline).toBe('solid');
  });

  it('fits a phone screen: no sideways scrolling, the map above the list', async () => {
    const { page } = await open('/?query=Bergstrasse', { width: 360 });
    await page.locator('.result').nth(9).waitFor();
    await page.locator('#map[data-basemap]').waitFor();
    await page.locator('#map[data-camera="settled"]').waitFor();
    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    const map = (await page.locator('#map').boundingBox())!;
    const list = (await page.locator('#results').boundingBox())!;
    expect(map.width).toBe(360);
    expect(map.height).toBeGreaterThan(200);
    expect(map.y + map.height).toBeLessThanOrEqual(list.y);
    expect(await page.locator('#map .marker').count()).toBe(10);
    await screenshot(page, 'phone');
  });

  it('lists results without a map where the browser has no WebGL', async () => {
    const plain = await launchBrowser(['--disable-3d-apis']);
    try {
      const page = await plain.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript(`localStorage.setItem('lis.apiKey', ${JSON.stringify(key)})`);
      await page.goto(`${base}/?query=Bergstrasse`);
      await page.locator('.result').nth(9).waitFor();
      expect(await page.locator('#map').textContent()).toMatch(/needs WebGL/);
      expect(await page.locator('#map canvas').count()).toBe(0);
      await searchBy(page, () => page.locator('#next-page').click());
      expect(await page.locator('#page-info').textContent()).toBe('Page 2 of 3');
      expect(errors).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('is pre-filled with the built-in database demo key when the service offers one', async () => {
    const { page: before } = await open('/', { key: null });
    expect(await before.locator('#api-key').inputValue()).toBe('');
    expect(await before.locator('#examples').isHidden()).toBe(true);

    app.get(WebPageService).offerDemoKey(key);
    const { page } = await open('/', { key: null });
    expect(await page.locator('#api-key').inputValue()).toBe(key);
    expect(await page.locator('#key-summary').textContent()).toBe('Demo key');
    expect(await page.locator('#examples').isVisible()).toBe(true);
    await page.locator('#query').fill('Bergstrasse 2');
    await searchBy(page, () => page.locator('#query').press('Enter'));
    expect((await resultAddresses(page))[0]).toBe('Bergstrasse 2, 9490 Vaduz');
    // The demo key is not written into the browser's storage: a real key typed later is.
    expect(await inPage(page, "localStorage.getItem('lis.apiKey')")).toBeNull();
  });
});

// Browser-side expressions as strings: the test code is type-checked without the DOM library.
function inPage<T = string>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}
