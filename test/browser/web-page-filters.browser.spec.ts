import { screenshot } from '../helpers/browser';
import { PageDriver, resultAddresses, searchBy, searches } from './page-driver';
import { streetRecords as records, useStreetPage } from './street-page';

// The filters of the page in a real browser against the real app: date, interactive, facing and the map
// centre, carried in the URL and reloaded from it, as a person uses them.
describe('web page in Chromium: filtering', () => {
  const street = useStreetPage();
  const open = (...args: Parameters<PageDriver['open']>) => street.driver.open(...args);

  it('filters by date, interactive, facing and the map centre; the URL carries them and reloads them', async () => {
    const { page } = await open('/?query=Bergstrasse');
    await page.locator('.result').first().waitFor();
    await page.locator('#filters > summary').click();

    let result = await searchBy(page, () => page.locator('label[for="facing-W"]').click());
    expect(result.request).toEqual({
      query: 'Bergstrasse',
      limit: 10,
      page: 1,
      facing: 'W',
      include: ['place', 'interpretation', 'match'],
    });
    const west = records.filter((r) => r.compass.endsWith('(W)'));
    expect((await resultAddresses(page)).sort()).toEqual(west.map((r) => r.address).sort());
    expect(new URL(page.url()).searchParams.get('facing')).toBe('W');
    expect(await page.locator('#filter-count').textContent()).toBe('1');

    await page.locator('label[for="facing-any"]').click();
    await page.locator('body:not(.is-busy)').waitFor();
    result = await searchBy(page, () => page.locator('#interactive').selectOption('true'));
    expect(result.request.interactive).toBe(true);
    expect(await page.locator('.badge').allTextContents()).toEqual(
      Array(result.body.data.length).fill('360° interactive'),
    );
    expect(result.body.data.length).toBe(records.filter((r) => r.interactive).length);

    await searchBy(page, () => page.locator('#captured-after').fill('2015-01-01'));
    result = await searchBy(page, () => page.locator('#captured-before').fill('2018-12-31'));
    expect(result.request).toMatchObject({
      captured_after: '2015-01-01',
      captured_before: '2018-12-31',
      interactive: true,
    });
    const expected = records.filter(
      (r) => r.interactive && r.capturedAt >= '2015-01-01' && r.capturedAt <= '2018-12-31',
    );
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
    expect((await resultAddresses(page)).sort()).toEqual(
      within
        .map((r) => r.address)
        .sort()
        .slice(0, 10),
    );

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
    expect((await resultAddresses(page)).sort()).toEqual(
      movedWithin
        .map((r) => r.address)
        .sort()
        .slice(0, 10),
    );
    const movedNear = result.request.near;

    await page.locator('label[for="facing-N"]').click();
    await page.locator('body:not(.is-busy)').waitFor();
    const filtered = await resultAddresses(page);
    const shared = new URL(page.url());
    expect(Object.fromEntries(shared.searchParams)).toMatchObject({
      query: 'Bergstrasse',
      facing: 'N',
      radius_m: '250',
    });
    await screenshot(page, 'filters');

    const again = await open(shared.pathname + shared.search);
    await again.page.locator('body:not(.is-busy)').waitFor();
    expect(await again.page.locator('#facing-N').isChecked()).toBe(true);
    expect(await again.page.locator('#near-enabled').isChecked()).toBe(true);
    expect(await again.page.locator('#near-radius').inputValue()).toBe('250');
    expect(await again.page.locator('#filters').getAttribute('open')).not.toBeNull();
    expect(await resultAddresses(again.page)).toEqual(filtered);
    expect(searches(again.requests).at(-1)).toEqual({
      query: 'Bergstrasse',
      limit: 10,
      page: 1,
      facing: 'N',
      near: movedNear,
      include: ['place', 'interpretation', 'match'],
    });
  }, 150_000); // a long story of ten steps through the page: a busy machine takes over a minute
});

function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
}
