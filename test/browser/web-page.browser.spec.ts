import type { Page } from 'playwright-core';
import { screenshot } from '../helpers/browser';
import { inPage, PageDriver, resultAddresses, searchBy } from './page-driver';
import { streetRecords as records, useStreetPage } from './street-page';

// The page in a real browser against the real app: typing, suggestions, results, the map, paging
// and shared URLs, as a person uses it. Filters: web-page-filters. Keys, keyboard, phone and no-WebGL:
// web-page-access.
const byAddress = new Map(records.map((r) => [r.address, r]));

describe('web page in Chromium: searching', () => {
  const street = useStreetPage();
  let base: string;
  beforeAll(() => ({ base } = street));
  const open = (...args: Parameters<PageDriver['open']>) => street.driver.open(...args);

  const markerIds = (page: Page) =>
    page.locator('#map .marker').evaluateAll((els) => els.map((e: any) => e.dataset.id as string));

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
    expect(request).toEqual({ query: picked, limit: 10, page: 1, include: ['place', 'interpretation', 'match'] });
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
      expect(await item.locator('.compass-rose').evaluate((e: any) => e.style.getPropertyValue('--heading'))).toBe(
        `${heading}deg`,
      );
      expect(await item.locator('.badge').textContent()).toBe(record.interactive ? '360° interactive' : 'Still image');
      // The demo image drawn by this service, really loaded.
      const img = item.locator('.thumb img');
      expect(await img.getAttribute('src')).toBe(`${base}/demo-images/${record.id}.svg`);
      await page.waitForFunction((el: any) => el.complete && el.naturalWidth > 0, await img.elementHandle(), {
        timeout: 10_000,
      });
    }
    expect(await page.locator('.thumb-missing').count()).toBe(0);

    const ids = await items.evaluateAll((els) => els.map((e: any) => e.dataset.id as string));
    expect((await markerIds(page)).sort()).toEqual([...ids].sort());
    expect(await page.locator('#map .marker-interactive').count()).toBe(
      body.data.filter((r: any) => r.interactive).length,
    );
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

  it('says what it searched for when the spelling was corrected, and marks those results', async () => {
    const { page, errors } = await open();
    await page.locator('#query').fill('Bergstrase');
    const { body } = await searchBy(page, () => page.locator('#search-form button[type="submit"]').click());
    expect(body.interpretation).toMatchObject({
      approximate: true,
      corrections: [{ from: 'bergstrase', to: 'bergstrasse' }],
    });
    expect(await page.locator('#status').textContent()).toBe(
      'Results 1–10 for “Bergstrase”, page 1 of 3. Showing results for “bergstrasse”.',
    );
    const items = page.locator('.result');
    expect(await items.count()).toBe(10);
    expect(await page.locator('.result[data-approximate="corrected"]').count()).toBe(10);
    expect(await items.first().locator('.badge-approximate').textContent()).toBe('Spelling corrected');
    // Exact results carry no such mark.
    await page.locator('#query').fill('Bergstrasse');
    await searchBy(page, () => page.locator('#search-form button[type="submit"]').click());
    expect(await page.locator('.badge-approximate').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('hovering a result highlights its marker, and hovering a marker highlights its result', async () => {
    const { page } = await open('/?query=Bergstrasse');
    await page.locator('#map[data-camera="settled"]').waitFor();
    const third = page.locator('.result').nth(2);
    const thirdId = (await third.getAttribute('data-id'))!;
    await third.hover();
    expect(
      await page.locator(`#map .marker.is-active`).evaluateAll((els) => els.map((e: any) => e.dataset.id)),
    ).toEqual([thirdId]);
    expect(await third.getAttribute('class')).toMatch(/is-active/);

    const seventhId = (await page.locator('.result').nth(6).getAttribute('data-id'))!;
    // At the offline basemap's zoom cap the street's markers overlap, so the pointer reaches the
    // marker by its own event rather than by position.
    await page.locator(`#map .marker[data-id="${seventhId}"]`).dispatchEvent('mouseenter');
    expect(await page.locator('.result.is-active').evaluateAll((els) => els.map((e: any) => e.dataset.id))).toEqual([
      seventhId,
    ]);
    expect(await page.locator(`#map .marker[data-id="${seventhId}"]`).getAttribute('class')).toMatch(/is-active/);
    await screenshot(page, 'hover');

    // Keyboard focus does the same as hovering.
    await page.locator('.result').nth(4).locator('.result-address').focus();
    const fifthId = (await page.locator('.result').nth(4).getAttribute('data-id'))!;
    expect(
      await page.locator('#map .marker.is-active').evaluateAll((els) => els.map((e: any) => e.dataset.id)),
    ).toEqual([fifthId]);
  });

  it("opens a record that is no photo's in the viewer with its image as it is; a click beside it closes it", async () => {
    const { page, errors } = await open('/?query=Bergstrasse');
    const item = page.locator('.result').nth(1);
    await item.waitFor();
    const id = (await item.getAttribute('data-id'))!;
    await item.locator('.thumb').click();
    await page.locator(`#viewer[open][data-state="shown"][data-id="${id}"]`).waitFor();
    expect(await page.locator('#viewer-image').getAttribute('src')).toBe(`${base}/demo-images/${id}.svg`);
    expect(await page.locator('#viewer-meta dd[data-term="date"]').textContent()).toBe(
      byAddress.get((await item.locator('.result-address').textContent())!)!.date,
    );
    // A demo record has no camera, sequence or other dates.
    expect(await page.locator('#viewer-meta dd[data-term="camera"]').count()).toBe(0);
    expect(await page.locator('#viewer-prev').isDisabled()).toBe(true);
    expect(await page.locator('#viewer-next').isDisabled()).toBe(true);
    expect(await page.locator('#viewer-dates').textContent()).toBe('No other dates at this spot.');
    const map = (await page.locator('#map').boundingBox())!;
    await page.mouse.click(map.x + map.width - 40, map.y + map.height / 2);
    await page.locator('#viewer:not([open])').waitFor({ state: 'attached' });
    expect(await inPage(page, `document.activeElement.closest('.result').dataset.id`)).toBe(id);
    expect(errors).toEqual([]);
  });

  it('pages through the results; the URL follows and Back returns', async () => {
    const { page } = await open('/?query=Bergstrasse');
    await page.locator('.result').nth(9).waitFor();
    const first = await resultAddresses(page);

    const second = await searchBy(page, () => page.locator('#next-page').click());
    expect(second.request).toEqual({
      query: 'Bergstrasse',
      limit: 10,
      page: 2,
      include: ['place', 'interpretation', 'match'],
    });
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
});
