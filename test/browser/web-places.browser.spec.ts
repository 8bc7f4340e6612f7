import { NestExpressApplication } from '@nestjs/platform-express';
import { Browser, launchBrowser, screenshot, serveApp } from '../helpers/browser';
import { insertPlaces, linkRecord, resetPlaces, KeyedTestPlace, testPlaceId } from '../helpers/places';
import { createKey, feature, importFixture, resetImagery } from '../helpers/test-app';
import { destination } from '../relevance/relevance-catalogue';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { inPage, PageDriver, resultAddresses, searchBy, searches } from './page-driver';

// The page's region control and the place each result belongs to, in Chromium against the real app,
// on places and imagery written here: a street in three towns of two countries, and an address
// with records around it facing it or not.
const TOWNS: KeyedTestPlace[] = [
  {
    key: 'vaduz',
    kind: 'locality',
    name: 'Vaduz',
    label: 'Vaduz, Liechtenstein',
    lon: 9.5209,
    lat: 47.141,
    importance: 0.5,
    countryCode: 'LI',
  },
  {
    key: 'feldkirch',
    kind: 'locality',
    name: 'Feldkirch',
    label: 'Feldkirch, Vorarlberg, Austria',
    lon: 9.5981,
    lat: 47.2378,
    importance: 0.5,
    regionCode: 'AT-8',
    countryCode: 'AT',
  },
  {
    key: 'innsbruck',
    kind: 'locality',
    name: 'Innsbruck',
    label: 'Innsbruck, Tyrol, Austria',
    lon: 11.3928,
    lat: 47.2692,
    importance: 0.6,
    regionCode: 'AT-7',
    countryCode: 'AT',
  },
];
const ADDRESS: KeyedTestPlace = {
  key: 'herrengasse-35',
  kind: 'address',
  name: 'Herrengasse 35',
  label: 'Herrengasse 35, 9490 Vaduz',
  lon: 9.5215,
  lat: 47.1395,
  importance: 0.1,
  countryCode: 'LI',
};

// Kirchstrasse in each town (two in Vaduz), a few hundred metres from its centre.
const STREET = [
  { address: 'Kirchstrasse 1, 9490 Vaduz', town: 'vaduz', bearing: 0 },
  { address: 'Kirchstrasse 2, 9490 Vaduz', town: 'vaduz', bearing: 90 },
  { address: 'Kirchstrasse 3, 6800 Feldkirch', town: 'feldkirch', bearing: 180 },
  { address: 'Kirchstrasse 4, 6020 Innsbruck', town: 'innsbruck', bearing: 270 },
];
// Records of the address itself, 10 m south of it: one facing it (north), one facing away.
const VIEWS = [
  { name: 'facing', heading: 0, expected: '10 m from Herrengasse 35, 9490 Vaduz, facing it (0°)' },
  { name: 'away', heading: 180, expected: '10 m from Herrengasse 35, 9490 Vaduz, facing away (180°)' },
];

describe('web page: regions and places in Chromium', () => {
  let app: NestExpressApplication;
  let base: string;
  let browser: Browser;
  let driver: PageDriver;
  const open = (...args: Parameters<PageDriver['open']>) => driver.open(...args);
  const town = (address: string) => STREET.find((s) => s.address === address)!.town;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces([...TOWNS, ADDRESS]);
    const demo = (id: string) => ({ id, image_url: `/demo-images/${id}.svg` });
    const street = STREET.map((s, i) => {
      const at = destination(
        TOWNS.find((t) => t.key === s.town)!,
        s.bearing,
        300,
      );
      return feature(s.address, { ...demo(`c0000000-0000-4000-8000-00000000000${i + 1}`), heading: 90 }, [
        at.lon,
        at.lat,
      ]);
    });
    const south = destination(ADDRESS, 180, 10);
    const views = VIEWS.map((v, i) =>
      feature(
        ADDRESS.label,
        { ...demo(`c0000000-0000-4000-8000-00000000010${i}`), heading: v.heading, interactive: false },
        [south.lon, south.lat],
      ),
    );
    expect((await importFixture([...street, ...views], DEMO_SOURCE)).rejected).toBe(0);
    for (const [i, s] of STREET.entries()) await linkRecord(street[i].id, { locality: s.town });
    for (const v of views) await linkRecord(v.id, { locality: 'vaduz', place: ADDRESS.key, origin: 'address' });
    ({ app, base } = await serveApp());
    browser = await launchBrowser();
    driver = new PageDriver(browser, base, await createKey(app, 'browser-places'));
  }, 60_000);

  afterEach(() => driver.closeAll());

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await resetPlaces(); // the other specs search without these places
  });

  it('chooses a country, then one of its regions: only their imagery, the region named, the URL carrying it', async () => {
    const { page, requests, errors } = await open('/?query=Kirchstrasse');
    await page.locator('.result').nth(3).waitFor();
    expect(await page.locator('#status').textContent()).toBe('Results 1–4 for “Kirchstrasse”, page 1 of 1.');
    expect(await page.locator('#region').isDisabled()).toBe(true);

    await page.locator('#filters > summary').click();
    let result = await searchBy(page, () => page.locator('#region-country').selectOption('AT'));
    expect(result.request).toEqual({
      query: 'Kirchstrasse',
      limit: 10,
      page: 1,
      region: 'AT',
      include: ['place', 'interpretation', 'match'],
    });
    expect({ region: result.body.region, region_id: result.body.region_id }).toEqual({
      region: 'Austria',
      region_id: 'AT',
    });
    expect((await resultAddresses(page)).map(town).sort()).toEqual(['feldkirch', 'innsbruck']);
    expect(await page.locator('#status').textContent()).toBe('Results 1–2 for “Kirchstrasse” in Austria, page 1 of 1.');
    expect(new URL(page.url()).searchParams.get('region')).toBe('AT');
    expect(await page.locator('#filter-count').textContent()).toBe('1');

    // Austria's regions arrive once it is chosen, by name with their codes.
    await page.locator('#region:not([disabled]) option[value="AT-8"]').waitFor({ state: 'attached' });
    expect(await page.locator('#region option[value="AT-8"]').textContent()).toBe('Vorarlberg (AT-8)');
    expect(await page.locator('#region-country option[value="LI"]').textContent()).toBe('Liechtenstein (LI)');
    result = await searchBy(page, () => page.locator('#region').selectOption('AT-8'));
    expect(result.request.region).toBe('AT-8');
    expect(await resultAddresses(page)).toEqual(['Kirchstrasse 3, 6800 Feldkirch']);
    expect(await page.locator('#status').textContent()).toBe('Result 1 for “Kirchstrasse” in Vorarlberg, page 1 of 1.');
    expect(new URL(page.url()).searchParams.get('region')).toBe('AT-8');
    await screenshot(page, 'region');

    // The lists come from this service, and a country's regions only once it is chosen.
    const lists = requests.map((r) => new URL(r.url()).pathname).filter((p) => p.startsWith('/regions'));
    expect([...new Set(lists)]).toEqual(['/regions.json', '/regions/AT.json']);
    expect(errors).toEqual([]);

    // A shared URL brings the region back into both controls and the search.
    const shared = new URL(page.url());
    const again = await open(shared.pathname + shared.search);
    await again.page.locator('body:not(.is-busy)').waitFor();
    expect(await again.page.locator('#region-country').inputValue()).toBe('AT');
    expect(await again.page.locator('#region').inputValue()).toBe('AT-8');
    expect(await resultAddresses(again.page)).toEqual(['Kirchstrasse 3, 6800 Feldkirch']);
    expect(searches(again.requests).at(-1).region).toBe('AT-8');

    // Another country starts at its whole country; "Any region" leaves region out of request and URL.
    result = await searchBy(page, () => page.locator('#region-country').selectOption('LI'));
    expect(result.request.region).toBe('LI');
    expect((await resultAddresses(page)).map(town)).toEqual(['vaduz', 'vaduz']);
    expect(await page.locator('#status').textContent()).toBe(
      'Results 1–2 for “Kirchstrasse” in Liechtenstein, page 1 of 1.',
    );
    result = await searchBy(page, () => page.locator('#region-country').selectOption(''));
    expect(result.request).not.toHaveProperty('region');
    expect(result.body.region).toBe('global');
    expect(await page.locator('.result').count()).toBe(4);
    expect(new URL(page.url()).searchParams.has('region')).toBe(false);
    expect(await page.locator('#region').isDisabled()).toBe(true);
  });

  it('drops a region code from a shared URL that no list knows, and searches without it', async () => {
    for (const code of ['AT-99', 'ZZ']) {
      const { page, requests } = await open(`/?query=Kirchstrasse&region=${code}`);
      await page.locator('.result').nth(3).waitFor();
      expect(searches(requests).map((s) => s.region)).toEqual([undefined]);
      expect(new URL(page.url()).searchParams.has('region')).toBe(false);
      expect(await page.locator('#region-country').inputValue()).toBe('');
    }
  });

  it('serves the region lists without a key, cacheable, and a JSON 404 for an unknown country', async () => {
    const all = await fetch(`${base}/regions.json`);
    expect(all.status).toBe(200);
    expect(all.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(((await all.json()) as any).countries).toContainEqual({ code: 'AT', name: 'Austria', regions: 9 });
    const austria = await fetch(`${base}/regions/at.json`);
    expect(await austria.json()).toMatchObject({
      code: 'AT',
      name: 'Austria',
      regions: expect.arrayContaining([{ code: 'AT-7', name: 'Tyrol' }]),
    });
    const unknown = await fetch(`${base}/regions/ZZ.json`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error).toMatchObject({
      code: 'NOT_FOUND',
      details: [expect.objectContaining({ field: 'country' })],
    });
  });

  it('names the place each result belongs to, how far and how well it faces it, and pins the place on the map', async () => {
    const { page, errors } = await open('/?query=Herrengasse%2035');
    await page.locator('.result').nth(1).waitFor();
    const { body } = await searchBy(page, () => page.reload());
    expect(body.data.map((r: { place: { id: string } }) => r.place.id)).toEqual([
      testPlaceId(ADDRESS.key),
      testPlaceId(ADDRESS.key),
    ]);

    const places = await page.locator('.result .result-place').allTextContents();
    // Records that face the address come first.
    expect(places).toEqual(VIEWS.map((v) => v.expected));
    expect(await page.locator('.result .place-label').allTextContents()).toEqual([ADDRESS.label, ADDRESS.label]);

    // One pin for the address, named on the map (the only place), joined to its records.
    await page.locator('#map[data-camera="settled"]').waitFor();
    const pins = page.locator('#map .place-marker');
    expect(await pins.count()).toBe(1);
    expect(await pins.getAttribute('data-place-id')).toBe(testPlaceId(ADDRESS.key));
    expect(await pins.locator('.place-name').textContent()).toBe(ADDRESS.label);
    expect(await pins.locator('.place-name').isVisible()).toBe(true);
    // The pin is put where the address is, 10 m north of its two records: at the street zoom the map
    // fits them to, drawn there, above the spot the two were taken at (around which they are spread).
    expect(await pins.getAttribute('data-lng-lat')).toBe(`${ADDRESS.lon},${ADDRESS.lat}`);
    const canvas = (await page.locator('#map canvas').boundingBox())!;
    const onScreen = (lon: number, lat: number) =>
      inPage<{ x: number; y: number }>(page, `window.lisMap.project([${lon}, ${lat}])`);
    const address = await onScreen(ADDRESS.lon, ADDRESS.lat);
    const south = destination(ADDRESS, 180, 10);
    const spot = await onScreen(south.lon, south.lat);
    const pin = (await pins.locator('.place-pin').boundingBox())!;
    expect(Math.abs(pin.y + pin.height / 2 - (canvas.y + address.y))).toBeLessThanOrEqual(2);
    expect(Math.abs(pin.x + pin.width / 2 - (canvas.x + address.x))).toBeLessThanOrEqual(2);
    expect(spot.y - address.y).toBeGreaterThan(10);
    // The two records share the spot: spread apart, not stacked.
    const [a, b] = await Promise.all((await page.locator('#map .marker-dot').all()).map((d) => d.boundingBox()));
    expect(Math.hypot(a!.x - b!.x, a!.y - b!.y)).toBeGreaterThan(24);
    expect(errors).toEqual([]);
    await screenshot(page, 'place');
  });

  it('frames the results of a town with its streets around them, those of an address at its doorstep', async () => {
    const zoomFor = async (query: string) => {
      const { page, errors } = await open('/');
      const { body } = await searchBy(page, async () => {
        await page.locator('#query').fill(query);
        await page.locator('#query').press('Enter');
      });
      await page.locator('#map[data-camera="settled"]').waitFor();
      expect(errors).toEqual([]);
      const kinds = new Set(body.data.map((r: { place: { kind: string } }) => r.place.kind));
      return { kinds, zoom: Number(await page.locator('#map').getAttribute('data-zoom')) };
    };
    // The town's four records lie 10 to 300 m from its centre: a frame of them alone would be at
    // zoom 15 or closer, where the town is a few streets.
    const town = await zoomFor('Vaduz');
    expect(town.kinds).toEqual(new Set(['locality']));
    expect(town.zoom).toBeGreaterThan(12);
    expect(town.zoom).toBeLessThanOrEqual(14);
    const address = await zoomFor('Herrengasse 35');
    expect(address.kinds).toEqual(new Set(['address']));
    expect(address.zoom).toBeGreaterThan(17);
  });

  it('pins each town once; a town is named while one of its results is active', async () => {
    const { page } = await open('/?query=Kirchstrasse');
    await page.locator('#map[data-camera="settled"]').waitFor();
    expect(await page.locator('.result .result-place').allTextContents()).toEqual(
      (await resultAddresses(page)).map((a) => `In ${TOWNS.find((t) => t.key === town(a))!.label}`),
    );
    const pins = page.locator('#map .place-marker');
    expect((await pins.evaluateAll((els) => els.map((e: any) => e.dataset.placeId as string))).sort()).toEqual(
      TOWNS.map((t) => testPlaceId(t.key)).sort(),
    );
    expect(await page.locator('#map .place-name:visible').count()).toBe(0);

    const feldkirch = page.locator('.result', { hasText: 'Feldkirch' });
    await feldkirch.hover();
    const named = page.locator('#map .place-marker.is-active .place-name');
    expect(await named.textContent()).toBe('Feldkirch, Vorarlberg, Austria');
    expect(await named.isVisible()).toBe(true);
    expect(await page.locator('#map .place-name:visible').count()).toBe(1);
    expect(await inPage(page, "document.querySelector('#map .place-marker.is-active').dataset.placeId")).toBe(
      testPlaceId('feldkirch'),
    );
  });
});
