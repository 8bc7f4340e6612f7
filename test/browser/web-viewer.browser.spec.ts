import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { Browser, launchBrowser, screenshot, serveApp } from '../helpers/browser';
import { BASE, GAZETTEER, insertPlaces, resetPlaces } from '../helpers/places';
import { createKey, resetImagery } from '../helpers/test-app';
import { inPage, PageDriver } from './page-driver';
import { importViewerPhotos, PHOTOS, PLACE_HEADING, POSE_HEADING, TRACK_HEADING, ViewerPhoto } from './viewer-photos';

// The viewer in Chromium against the real app, on photos the spec makes (./viewer-photos.ts): a flat
// and a 360 result opened from their cards; the 360 facing the place searched (its red mark at the
// centre of the canvas), or its own heading for a query that names no place; the arrows along the
// drive; the date strip; the map following the image viewed.
type Name = keyof typeof PHOTOS;
const COORDINATES = `${BASE[1]}, ${BASE[0]}`;

describe('web page: the viewer in Chromium', () => {
  const root = mkdtempSync(join(tmpdir(), 'lis-viewer-'));
  let app: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let driver: PageDriver;
  let key: string;
  const ids = {} as Record<Name, string>;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    await importViewerPhotos(root, join(root, 'store'));
    ({ app, base } = await serveApp({ imageStoreDir: join(root, 'store') }));
    key = await createKey(app, 'browser-viewer');
    browser = await launchBrowser();
    driver = new PageDriver(browser, base, key);
    const found = await fetch(`${base}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ query: COORDINATES }),
    }).then((r) => r.json() as Promise<{ data: Array<{ id: string; geometry: { coordinates: number[] } }> }>);
    for (const [name, photo] of Object.entries(PHOTOS) as [Name, ViewerPhoto][]) {
      const near = found.data.filter((r) => metres(r.geometry.coordinates, photo) < 0.5);
      expect(near).toHaveLength(1);
      ids[name] = near[0].id;
    }
  }, 90_000);

  afterEach(() => driver.closeAll());
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await resetPlaces();
    rmSync(root, { recursive: true, force: true });
  });

  // The page with a search run (from its URL), motion reduced so the map moves at once.
  async function searched(query: string) {
    const opened = await driver.open(`/?query=${encodeURIComponent(query)}`);
    await opened.page.emulateMedia({ reducedMotion: 'reduce' });
    await opened.page.locator('.result').first().waitFor();
    await opened.page.locator('body:not(.is-busy)').waitFor();
    return opened;
  }
  const card = (page: Page, name: Name) => page.locator(`.result[data-id="${ids[name]}"] .thumb`);
  const shown = (page: Page, name: Name) =>
    page.locator(`#viewer[open][data-state="shown"][data-id="${ids[name]}"]`).waitFor({ timeout: 20_000 });
  const meta = (page: Page, term: string) => page.locator(`#viewer-meta dd[data-term="${term}"]`).textContent();
  const focused = (page: Page) =>
    inPage(page, `document.activeElement.id || document.activeElement.className || document.activeElement.tagName`);

  it('opens a flat result at its hd size with its metadata; Escape closes it and the focus returns', async () => {
    const { page, errors } = await searched(COORDINATES);
    const thumb = card(page, 'drive1');
    expect(await thumb.locator('img').getAttribute('src')).toBe(`${base}/images/${ids.drive1}/thumb.jpg`);
    expect(await thumb.getAttribute('aria-haspopup')).toBe('dialog');
    await thumb.focus();
    await page.keyboard.press('Enter');
    await shown(page, 'drive1');
    const dialog = page.locator('#viewer');
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.locator('#viewer-title').textContent()).toBe(
      await page.locator(`.result[data-id="${ids.drive1}"] .result-address`).textContent(),
    );
    const image = page.locator('#viewer-image');
    expect(await image.getAttribute('src')).toBe(`${base}/images/${ids.drive1}/hd.jpg`);
    expect(await image.evaluate((e: any) => [e.naturalWidth, e.naturalHeight])).toEqual([640, 480]);
    expect(await image.getAttribute('alt')).toContain('May 1, 2024');
    expect(await meta(page, 'date')).toBe('May 1, 2024');
    expect(await meta(page, 'facing')).toBe('Facing East (E), 90°');
    expect(await meta(page, 'camera')).toBe('TestCam Street');
    expect(await page.locator('#viewer-sphere').isHidden()).toBe(true);
    expect(await inPage<boolean>(page, `document.getElementById('viewer').contains(document.activeElement)`)).toBe(
      true,
    );
    await screenshot(page, 'viewer-flat');

    await page.keyboard.press('Escape');
    await page.locator('#viewer:not([open])').waitFor({ state: 'attached' });
    expect(await inPage<string>(page, `document.activeElement.closest('.result').dataset.id`)).toBe(ids.drive1);
    expect(await focused(page)).toBe('thumb');
    expect(await page.locator('.viewing-marker').count()).toBe(0);
    // A click on the card opens it too.
    await page.locator(`.result[data-id="${ids.drive0}"] .result-meta`).click();
    await shown(page, 'drive0');
    expect(errors).toEqual([]);
  });

  it('opens a 360 result in Photo Sphere Viewer facing the place searched, loaded only then', async () => {
    const { page, requests, errors } = await searched('Städtle 1, Vaduz');
    const thumb = card(page, 'pano');
    // The card shows the view towards the place, small.
    const src = new URL((await thumb.locator('img').getAttribute('src'))!);
    expect(src.pathname).toBe(`/images/${ids.pano}/view.jpg`);
    expect(Number(src.searchParams.get('heading'))).toBeCloseTo(PLACE_HEADING, 0);
    expect([src.searchParams.get('width'), src.searchParams.get('height')]).toEqual(['320', '200']);
    await page.waitForFunction(
      (e: any) => e.complete && e.naturalWidth === 320,
      await thumb.locator('img').elementHandle(),
    );
    expect(requests.some((r) => r.url().includes('/assets/chunks/'))).toBe(false);

    await thumb.click();
    await shown(page, 'pano');
    // The panorama is the hd derivative: the cropped area (1200 x 480), placed in the sphere by the
    // geometry the camera include gives (the derivative carries no XMP).
    const panorama = requests.find((r) => new URL(r.url()).pathname === `/images/${ids.pano}/hd.jpg`);
    expect(panorama).toBeDefined();
    const { width, height } = await sharp((await (await panorama!.response())!.body()) as Buffer).metadata();
    expect(width! / height!).toBe(2.5);
    const viewed = await fetch(`${base}/images/${ids.pano}?include=heading,camera`, { headers: { 'x-api-key': key } });
    expect(await viewed.json()).toMatchObject({
      heading: TRACK_HEADING,
      camera: {
        projection: 'equirectangular',
        heading_origin: 'track',
        panorama: {
          pose_heading: POSE_HEADING,
          ...{ full_width: 1440, full_height: 720, cropped_left: 120, cropped_top: 90 },
          ...{ cropped_width: 1200, cropped_height: 480 },
        },
      },
    });
    expect(requests.some((r) => r.url().includes('/assets/chunks/'))).toBe(true);
    expect(await page.locator('#viewer-image').isHidden()).toBe(true);
    expect(await meta(page, 'camera')).toBe('TestCam Sphere');
    expect(Number(await page.locator('#viewer-sphere').getAttribute('data-heading'))).toBeCloseTo(PLACE_HEADING, 0);
    expect(await centreColour(page)).toBe('red');
    // The map's cone looks the same way, and turns with the panorama.
    const marker = page.locator('.viewing-marker');
    expect(Number(await marker.getAttribute('data-heading'))).toBe(PLACE_HEADING);
    await screenshot(page, 'viewer-360');
    const box = (await page.locator('#viewer-sphere').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2, { steps: 10 });
    await page.mouse.up();
    await page.waitForTimeout(1500); // the drag's inertia
    const turnedTo = Number(await page.locator('#viewer-sphere').getAttribute('data-heading'));
    expect(Math.abs(turnedTo - PLACE_HEADING)).toBeGreaterThan(10);
    expect(Math.abs(Number(await marker.getAttribute('data-heading')) - turnedTo)).toBeLessThanOrEqual(0.5);
    expect(errors).toEqual([]);
  });

  it('opens a 360 result at its own heading for a query that names no place (the mark is not there)', async () => {
    const { page, errors } = await searched('Vaduz');
    await card(page, 'pano').click();
    await shown(page, 'pano');
    expect(Number(await page.locator('#viewer-sphere').getAttribute('data-heading'))).toBeCloseTo(TRACK_HEADING, 0);
    expect(await centreColour(page)).toBe('blue');
    expect(errors).toEqual([]);
  });

  it('walks along the drive with the arrows and the arrow keys, the map following', async () => {
    const { page, errors } = await searched(COORDINATES);
    await card(page, 'drive1').click();
    await shown(page, 'drive1');
    await expectMapOn(page, 'drive1');
    await page.keyboard.press('ArrowRight');
    await shown(page, 'drive2');
    await expectMapOn(page, 'drive2');
    expect(await page.locator('#viewer-next').isDisabled()).toBe(true);
    await page.keyboard.press('ArrowRight'); // the drive's end: stays
    expect(await page.locator('#viewer').getAttribute('data-id')).toBe(ids.drive2);
    await page.locator('#viewer-prev').click();
    await shown(page, 'drive1');
    await page.keyboard.press('ArrowLeft');
    await shown(page, 'drive0');
    await expectMapOn(page, 'drive0');
    expect(await page.locator('#viewer-prev').isDisabled()).toBe(true);
    expect(await meta(page, 'sequence')).toBe('No. 1 in its sequence');
    // The focus stayed in the dialog though the button pressed was disabled at the drive's start.
    expect(await inPage<boolean>(page, `document.getElementById('viewer').contains(document.activeElement)`)).toBe(
      true,
    );
    expect(errors).toEqual([]);
  });

  it('lists the other dates at the spot and switches to one, the map following', async () => {
    const { page, errors } = await searched(COORDINATES);
    await card(page, 'drive1').click();
    await shown(page, 'drive1');
    const dates = page.locator('#viewer-dates .viewer-date');
    expect(await dates.allTextContents()).toEqual(['June 15, 2019']);
    await dates.first().click();
    await shown(page, 'old');
    expect(await meta(page, 'date')).toBe('June 15, 2019');
    expect(await meta(page, 'camera')).toBe('OldCam 2');
    expect(await dates.allTextContents()).toEqual(['May 1, 2024']);
    expect(await page.locator('#viewer-prev').isDisabled()).toBe(true);
    expect(await page.locator('#viewer-next').isDisabled()).toBe(true);
    await expectMapOn(page, 'old');
    await dates.first().click();
    await shown(page, 'drive1');
    expect(errors).toEqual([]);
  });

  it('fills a phone-sized screen, and closes with its button', async () => {
    const { page, errors } = await driver.open(`/?query=${encodeURIComponent(COORDINATES)}`, { width: 390 });
    await card(page, 'drive2').click();
    await shown(page, 'drive2');
    const box = (await page.locator('#viewer').boundingBox())!;
    expect([box.x, box.width]).toEqual([0, 390]);
    expect(await page.locator('#viewer-image').evaluate((e: any) => e.getBoundingClientRect().width)).toBeGreaterThan(
      300,
    );
    await screenshot(page, 'viewer-phone');
    await page.locator('#viewer-close').click();
    await page.locator('#viewer:not([open])').waitFor({ state: 'attached' });
    expect(await inPage<string>(page, `document.activeElement.closest('.result').dataset.id`)).toBe(ids.drive2);
    expect(errors).toEqual([]);
  });

  // The viewed image's marker at its camera, the map centred on it (in the part the viewer leaves in view).
  async function expectMapOn(page: Page, name: Name): Promise<void> {
    const photo = PHOTOS[name];
    const marker = page.locator('.viewing-marker');
    const at = (await marker.getAttribute('data-lng-lat'))!.split(',').map(Number);
    expect(metres(at, photo)).toBeLessThan(0.5);
    await page.waitForFunction(`!window.lisMap.isMoving()`);
    const centre = await inPage<{ lng: number; lat: number }>(page, 'window.lisMap.getCenter()');
    expect(metres([centre.lng, centre.lat], photo)).toBeLessThan(0.5);
    // On screen, right of the dialog.
    const box = (await marker.boundingBox())!;
    const dialog = (await page.locator('#viewer').boundingBox())!;
    expect(box.x + box.width / 2).toBeGreaterThan(dialog.x + dialog.width);
  }
});

// The colour at the centre of the panorama's canvas, from a screenshot of it.
async function centreColour(page: Page): Promise<string> {
  await page.waitForFunction(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`);
  const png = await page.locator('#viewer-sphere canvas').screenshot();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  const [r, g, b] = data.subarray(at, at + 3);
  return r > 180 && g < 80 && b < 80 ? 'red' : b > 180 && r < 80 && g < 80 ? 'blue' : `other (${r}, ${g}, ${b})`;
}

function metres([lon, lat]: number[], photo: { lon: number; lat: number }): number {
  const dLat = (lat - photo.lat) * 111_320;
  const dLon = (lon - photo.lon) * 111_320 * Math.cos((lat * Math.PI) / 180);
  return Math.hypot(dLat, dLon);
}
