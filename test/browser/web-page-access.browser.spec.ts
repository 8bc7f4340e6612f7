import { launchBrowser, screenshot } from '../helpers/browser';
import { WebPageService } from '../../src/web-page/web-page.service';
import { inPage, PageDriver, resultAddresses, searchBy } from './page-driver';
import { useStreetPage } from './street-page';

// The page in a real browser against the real app: without a key, with a remembered, refused or demo
// key, from the keyboard, on a phone screen and without WebGL.
describe('web page in Chromium: keys and access', () => {
  const street = useStreetPage();
  let base: string;
  let key: string;
  beforeAll(() => ({ base, key } = street));
  const open = (...args: Parameters<PageDriver['open']>) => street.driver.open(...args);

  it('serves the page without a key, loads everything from this service, and asks for a key', async () => {
    const { page, requests, errors } = await open('/', { key: null });
    await page.locator('#map[data-basemap]').waitFor();
    expect(await page.title()).toBe('Location Imagery Search');
    expect(await page.locator('#key-panel').getAttribute('open')).not.toBeNull();
    expect(await page.locator('#status').textContent()).toMatch(/Add an API key/);
    expect(await page.locator('#map canvas').count()).toBe(1);
    // No CDN, no external fonts or tiles: every request goes to this service.
    const foreign = requests
      .map((r) => r.url())
      .filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(foreign).toEqual([]);
    expect(requests.some((r) => r.url().endsWith('/map/style.json'))).toBe(true);
    expect(requests.some((r) => r.url().endsWith('/assets/basemap/land.geojson'))).toBe(true);
    expect(errors).toEqual([]);
    await screenshot(page, 'no-key');
  });

  it('remembers a typed key in this browser', async () => {
    const { page } = await open('/', { key: null });
    await page.locator('#api-key').fill(key);
    await page.locator('#key-form button[type="submit"]').click();
    expect(await page.locator('#key-panel').getAttribute('open')).toBeNull();
    expect(await inPage(page, "localStorage.getItem('lis.apiKey')")).toBe(key);
    const again = street.driver.track(await street.browser.context.newPage());
    await again.goto(base);
    await again.locator('body[data-ready="true"]').waitFor();
    expect(await again.locator('#api-key').inputValue()).toBe(key);
    expect(await again.locator('#key-summary').textContent()).toBe('API key');

    // The panel opens from its button and closes with Escape, focus back on the button.
    await again.locator('#key-panel > summary').click();
    // The panel focuses its field on the details' toggle event, which the browser fires in a task of its
    // own after the click: waited for (checked at once, a busy CI machine saw the click's focus instead).
    await again
      .waitForFunction("document.activeElement?.id === 'api-key'", undefined, { timeout: 5000 })
      .catch(() => undefined);
    expect(await inPage(again, 'document.activeElement?.id')).toBe('api-key');
    await again.keyboard.press('Escape');
    expect(await again.locator('#key-panel').getAttribute('open')).toBeNull();
    expect(await inPage(again, 'document.activeElement?.tagName')).toBe('SUMMARY');
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
    const outline = await page
      .locator('#query')
      .evaluate((e: any) => e.ownerDocument.defaultView.getComputedStyle(e).boxShadow);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Tab');
    const buttonOutline = await page
      .locator('#search-form button[type="submit"]')
      .evaluate((e: any) => e.ownerDocument.defaultView.getComputedStyle(e).outlineStyle);
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

    street.app.get(WebPageService).offerDemoKey(key);
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
