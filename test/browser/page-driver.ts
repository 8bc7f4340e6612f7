import type { Page, Request } from 'playwright-core';
import { Browser } from '../helpers/browser';

// Drives the web page as a person does, for the browser specs: opens it with a key remembered,
// collects every request and browser error, and waits for the searches actions start.

export interface OpenedPage {
  page: Page;
  requests: Request[];
  errors: string[];
  /** console.warn: MapLibre's word when it could not use a glyph range or an image. */
  warnings: string[];
}

export class PageDriver {
  private readonly opened: Page[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly base: string,
    private readonly key: string,
  ) {}

  // A page with the key already remembered (or none: key null), ready once the page says so.
  async open(path = '/', options: { key?: string | null; width?: number } = {}): Promise<OpenedPage> {
    const page = await this.browser.context.newPage();
    this.opened.push(page);
    if (options.width) await page.setViewportSize({ width: options.width, height: 844 });
    const storedKey = options.key === undefined ? this.key : options.key;
    await page.addInitScript(
      storedKey === null ? 'localStorage.clear()' : `localStorage.setItem('lis.apiKey', ${JSON.stringify(storedKey)})`,
    );
    const requests: Request[] = [];
    const errors: string[] = [];
    const warnings: string[] = [];
    page.on('request', (r) => requests.push(r));
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${this.base}${path}`);
    await page.locator('body[data-ready="true"]').waitFor();
    return { page, requests, errors, warnings };
  }

  // A page opened some other way, closed with the rest.
  track(page: Page): Page {
    this.opened.push(page);
    return page;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.opened.splice(0).map((p) => p.close()));
  }
}

export const searches = (requests: Request[]) =>
  requests.filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/search').map((r) => r.postDataJSON());

// Runs an action and waits for the full search (limit 10) it starts, and for the page to show it.
export async function searchBy(page: Page, action: () => Promise<unknown>) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === '/search' && r.request().postDataJSON()?.limit === 10),
    action(),
  ]);
  await page.locator('body:not(.is-busy)').waitFor();
  return { request: response.request().postDataJSON(), body: await response.json() };
}

export const resultAddresses = (page: Page) => page.locator('.result .result-address').allTextContents();

// Browser-side expressions as strings: the test code is type-checked without the DOM library.
export function inPage<T = string>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

/** The colour (RGBA) the map draws at a point, read from its canvas. */
export async function mapPixel(page: Page, lonLat: [number, number]): Promise<number[]> {
  const at = await inPage<{ x: number; y: number }>(page, `window.lisMap.project([${lonLat}])`);
  return inPage<number[]>(
    page,
    `(() => { const gl = window.lisMap.getCanvas().getContext('webgl2') || window.lisMap.getCanvas().getContext('webgl');
      const px = new Uint8Array(4); const r = window.devicePixelRatio;
      window.lisMap.redraw();
      gl.readPixels(Math.round(${at.x} * r), gl.drawingBufferHeight - Math.round(${at.y} * r), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return [...px]; })()`,
  );
}
