import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { BrowserContext, chromium, Page } from 'playwright-core';
import type { AppConfig } from '../../src/config/app-config';
import { startApp } from './test-app';

// Debian's chromium, driven by playwright-core (no `playwright install`, no download).
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SCREENSHOTS = resolve(__dirname, '..', '..', 'test-results', 'screenshots');
const WEB_BUILD = resolve(__dirname, '..', '..', 'dist', 'web', 'index.html');

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'lis-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs],
    viewport: { width: 1360, height: 860 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface ServedApp {
  app: NestExpressApplication;
  base: string;
}

// The real app on a free loopback port. Relative image paths resolve against the app itself, as on
// the built-in database, so the demo's /demo-images/{id}.svg thumbnails really load.
export async function serveApp(overrides: Partial<AppConfig> = {}): Promise<ServedApp> {
  if (!existsSync(WEB_BUILD)) throw new Error('The web page is not built: run npm run build (npm test does it first)');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await startApp({ imageBaseUrl: base, ...overrides });
  await app.listen(port, '127.0.0.1');
  return { app, base };
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolvePromise) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePromise(port));
    });
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
