import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Page } from 'playwright-core';
import { Browser, launchBrowser } from '../helpers/browser';
import { serveStacBrowser, stacBrowserSite } from '../helpers/stac-browser';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// A real STAC client: STAC Browser, built from the vendored source, in Chromium against the STAC API.
// The key is sent as a header on every request to the API, as STAC Browser's authConfig does once a
// user has entered it (the log-in form is STAC Browser's, not under test here).
const RECORDS = Array.from({ length: 23 }, (_, i) =>
  feature(
    `Kirchstrasse ${i + 1}, Balzers`,
    { captured_at: `2022-04-${String(i + 1).padStart(2, '0')}`, heading: 10 * i + 0.5 },
    [9.5 + i * 0.0002, 47.065],
  ),
);
const titleOf = (n: number) => `Kirchstrasse ${n}, Balzers`;

describe('STAC Browser in Chromium on /stac', () => {
  let app: NestExpressApplication;
  let browser: Browser;
  let site: { url: string; server: Server };
  let api: string;
  let key: string;
  const requests: string[] = [];
  // The bodies of the item searches STAC Browser's search page POSTs.
  const searches: Array<Record<string, any>> = [];

  beforeAll(async () => {
    const dist = await stacBrowserSite();
    site = await serveStacBrowser(dist, () => api);
    await resetImagery();
    await importFixture(RECORDS, 'survey-balzers');
    app = await startApp();
    key = await createKey(app);
    await app.listen(0, '127.0.0.1');
    api = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
    await browser.context.route(`${site.url}/stac**`, (route) => {
      requests.push(route.request().url());
      const url = new URL(route.request().url());
      if (route.request().method() === 'POST' && url.pathname === '/stac/search')
        searches.push(JSON.parse(route.request().postData() ?? '{}'));
      return route.continue({ headers: { ...route.request().headers(), 'x-api-key': key } });
    });
  }, 20 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    site?.server.close();
  });

  const open = async (path: string): Promise<Page> => {
    const page = await browser.context.newPage();
    await page.goto(site.url + path);
    return page;
  };
  const text = (page: Page) => page.innerText('body');

  it('lists the collections on the landing page', async () => {
    const page = await open('/');
    await page.getByText('survey-balzers', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await text(page)).toContain('Location Imagery Search');
    expect(requests).toContain(`${site.url}/stac`);
    await page.close();
  });

  it("shows a collection's items and walks them with Next, without repeats or gaps", async () => {
    const page = await open('/');
    await page.getByText('survey-balzers', { exact: true }).first().click();
    await page.getByText(titleOf(23)).first().waitFor({ timeout: 30_000 });
    expect(await text(page)).toMatch(/Count\s+23/);
    const seen: string[] = [];
    for (let p = 0; p < 3; p++) {
      const body = await text(page);
      seen.push(...RECORDS.map((_, i) => titleOf(i + 1)).filter((t) => new RegExp(`${t}\\b`).test(body)));
      if (p < 2) {
        const last = titleOf(23 - 10 * (p + 1));
        await page.getByText('Next ›').first().click();
        await page.getByText(last).first().waitFor({ timeout: 30_000 });
      }
    }
    expect(seen.sort()).toEqual(RECORDS.map((_, i) => titleOf(i + 1)).sort());
    expect(requests.some((u) => /\/items\?.*token=/.test(u))).toBe(true);
    await page.close();
  });

  // The search page, its form submitted, and the body it sent.
  const shownTitles = (body: string) =>
    RECORDS.map((_, i) => titleOf(i + 1)).filter((t) => new RegExp(`${t}\\b`).test(body));
  const searchPage = async () => {
    const page = await open('/search');
    await page.getByText('Filter by spatial extent').first().waitFor({ timeout: 30_000 });
    return page;
  };
  const submit = async (page: Page) => {
    const before = searches.length;
    await page.getByRole('button', { name: 'Submit' }).first().click();
    for (let t = 0; searches.length === before && t < 300; t++) await page.waitForTimeout(100);
    return searches.at(-1)!;
  };

  it('searches by a bbox typed into the search form, and lists what lies in it', async () => {
    const page = await searchPage();
    await page.getByText('Filter by spatial extent').first().click();
    // Kirchstrasse 1 to 6 lie at 9.5000 to 9.5010 east, 47.065 north.
    const box = { westLon: 9.49995, southLat: 47.06, eastLon: 9.50105, northLat: 47.07 };
    for (const [id, value] of Object.entries(box)) {
      await page.fill(`#${id}`, String(value));
      await page.press(`#${id}`, 'Tab');
    }
    const sent = await submit(page);
    // The map's projection leaves float noise on the typed numbers.
    [box.westLon, box.southLat, box.eastLon, box.northLat].forEach((v, i) => expect(sent.bbox[i]).toBeCloseTo(v, 9));
    await page.getByText(titleOf(6)).first().waitFor({ timeout: 30_000 });
    expect(shownTitles(await text(page)).sort()).toEqual([1, 2, 3, 4, 5, 6].map(titleOf).sort());
    await page.close();
  });

  it('searches by a date range picked in the calendar, and lists the records taken then', async () => {
    const page = await searchPage();
    await page.getByPlaceholder('Select date range').first().click();
    await page.locator('[data-test-id="year-toggle-overlay-0"]').first().click();
    await page.locator('[data-test-id="2022"]').first().click();
    await page.locator('[data-test-id="month-toggle-overlay-0"]').first().click();
    await page.locator('[data-test-id="Apr"]').first().click();
    await page.locator('[data-test-id="dp-2022-04-03"]').first().click();
    await page.locator('[data-test-id="dp-2022-04-08"]').first().click();
    const sent = await submit(page);
    // The picker sends the days at the time of day it is now; a record's datetime is its whole day.
    const [from, to] = (sent.datetime as string).split('/').map(Date.parse);
    expect(new Date(from).toISOString().slice(0, 10)).toBe('2022-04-03');
    expect(new Date(to).toISOString().slice(0, 10)).toBe('2022-04-08');
    const expected = RECORDS.map((r, i) => ({ title: titleOf(i + 1), day: Date.parse(`${r.properties.captured_at}Z`) }))
      .filter((r) => r.day <= to && r.day + 86_399_000 >= from)
      .map((r) => r.title);
    expect(expected).toHaveLength(6);
    await page.getByText(expected.at(-1)!).first().waitFor({ timeout: 30_000 });
    expect(shownTitles(await text(page)).sort()).toEqual(expected.sort());
    await page.close();
  });

  it('shows an item with its image asset and view:azimuth', async () => {
    const record = RECORDS[4];
    const page = await open(`/stac/collections/survey-balzers/items/${record.id}`);
    await page.getByText('Viewing Azimuth').first().waitFor({ timeout: 30_000 });
    const body = await text(page);
    expect(body).toContain(titleOf(5));
    expect(body).toMatch(/Viewing Azimuth\s+40\.5\s*°/);
    expect(body).toMatch(/Image\s+VISUAL/i);
    await page.close();
  });
});
