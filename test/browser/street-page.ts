import { NestExpressApplication } from '@nestjs/platform-express';
import { Browser, launchBrowser, serveApp } from '../helpers/browser';
import { createKey, importFixture, resetImagery } from '../helpers/test-app';
import { streetFeatures, streetFixture } from '../helpers/web-fixtures';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { PageDriver } from './page-driver';

// The web page specs' common ground: the street fixture imported, the real app serving it, a key, and
// Chromium driven by a PageDriver. Call inside a describe: it registers the hooks; the fields are set
// once beforeAll has run.
export interface StreetPage {
  app: NestExpressApplication;
  base: string;
  key: string;
  browser: Browser;
  driver: PageDriver;
}

export const streetRecords = streetFixture();

export function useStreetPage(): StreetPage {
  const ctx = {} as StreetPage;
  beforeAll(async () => {
    await resetImagery();
    // As the demo seed: its image URLs point at /demo-images, which draws demo-seed records only.
    await importFixture(streetFeatures(streetRecords), DEMO_SOURCE);
    ({ app: ctx.app, base: ctx.base } = await serveApp());
    ctx.key = await createKey(ctx.app, 'browser');
    ctx.browser = await launchBrowser();
    ctx.driver = new PageDriver(ctx.browser, ctx.base, ctx.key);
  }, 60_000);

  afterEach(() => ctx.driver.closeAll());

  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.app?.close();
  });
  return ctx;
}
