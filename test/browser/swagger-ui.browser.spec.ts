import { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'playwright-core';
import { Browser, launchBrowser, screenshot, serveApp } from '../helpers/browser';
import { createKey, importFixture, resetImagery } from '../helpers/test-app';
import { relevanceFixture } from '../helpers/fixtures';

// Swagger UI at /docs in a real browser, under the app's own security headers: it loads from the app
// alone, and "Authorize" + "Try it out" run a real search with a key.
describe('Swagger UI in Chromium', () => {
  let app: NestExpressApplication;
  let base: string;
  let key: string;
  let browser: Browser;

  beforeAll(async () => {
    await resetImagery();
    await importFixture(relevanceFixture());
    ({ app, base } = await serveApp());
    key = await createKey(app, 'swagger-ui');
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('authorizes with a key and runs POST /search with "Try it out"', async () => {
    const page = await browser.context.newPage();
    const requests: Request[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await page.goto(`${base}/docs`);
      await page.locator('#operations-search-search').waitFor();

      await page.locator('.btn.authorize').first().click();
      await page.locator('.modal-ux input[type="text"]').first().fill(key);
      await page.locator('.modal-ux .btn.modal-btn.auth.authorize').first().click();
      await page.locator('.modal-ux .btn-done').first().click();

      await page.locator('#operations-search-search .opblock-summary').click();
      // tryItOutEnabled: the editor is open already (the button offers "Cancel").
      await page.locator('#operations-search-search .try-out__btn', { hasText: 'Cancel' }).waitFor();
      await page
        .locator('#operations-search-search .body-param__text')
        .fill(JSON.stringify({ query: 'Herrengasse 35', limit: 2 }));
      const [response] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/search'),
        page.locator('#operations-search-search .execute').click(),
      ]);
      expect(response.status()).toBe(200);
      expect(response.request().headers()['x-api-key']).toBe(key);
      const body = await response.json();
      expect(body).toMatchObject({ isSuccess: true, page: 1 });
      expect(body.data[0].address).toBe('Herrengasse 35, 9490 Vaduz');
      await page
        .locator('#operations-search-search .live-responses-table .response-col_status', { hasText: '200' })
        .waitFor();
      await screenshot(page, 'swagger-ui-try-it-out');

      // Everything came from the app itself (no CDN), and nothing was blocked or failed.
      expect(requests.map((r) => new URL(r.url()).origin).filter((o) => o !== base && o !== 'null')).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
