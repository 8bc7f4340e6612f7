import { DecodedPhotoCache, WHOLE } from '../../src/photos/serving/decoded-photo-cache';
import { DecodedBand, holds, RowSpan, wholeImage } from '../../src/photos/serving/panorama-band';

// The memory cache of decoded photos: a photo decoded once while kept, the least recently used
// dropped past the bound in bytes of pixels, nothing kept at 0 or bigger than the bound.

const pixels = (bytes: number, fill: number): DecodedBand =>
  wholeImage({ data: Buffer.alloc(bytes, fill), width: bytes / 3, height: 1, channels: 3 });
// Rows `top` to `top + rows` of a 100-row image one pixel wide.
const band = (top: number, rows: number): DecodedBand => ({
  data: Buffer.alloc(rows * 3, top),
  width: 1,
  height: rows,
  channels: 3,
  top,
  wholeHeight: 100,
});

describe('the memory cache of decoded photos', () => {
  it('decodes a photo once, for requests at the same time and after, while it is kept', async () => {
    const cache = new DecodedPhotoCache(1000);
    let decodes = 0;
    const decode = async () => {
      decodes++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return pixels(300, 7);
    };
    const [a, b] = await Promise.all([cache.get('p', WHOLE, decode), cache.get('p', WHOLE, decode)]);
    expect(a).toBe(b);
    expect(await cache.get('p', WHOLE, decode)).toBe(a);
    expect(decodes).toBe(1);
    expect(cache.size).toBe(300);
  });

  it('keeps at most its bound in bytes, dropping the least recently used', async () => {
    const cache = new DecodedPhotoCache(900);
    const decoded: string[] = [];
    const get = (key: string) =>
      cache.get(key, WHOLE, () => {
        decoded.push(key);
        return Promise.resolve(pixels(300, key.charCodeAt(0)));
      });
    for (const key of ['a', 'b', 'c']) await get(key);
    await get('a'); // a is now the most recently used: b goes next
    await get('d');
    expect(cache.size).toBeLessThanOrEqual(900);
    await get('a');
    await get('c');
    expect(decoded).toEqual(['a', 'b', 'c', 'd']);
    await get('b');
    expect(decoded).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('keeps nothing at a bound of 0 or bigger than the bound, and passes a failed decode on', async () => {
    for (const [bound, bytes] of [
      [0, 300],
      [600, 900],
    ]) {
      const cache = new DecodedPhotoCache(bound);
      let decodes = 0;
      const decode = () => {
        decodes++;
        return Promise.resolve(pixels(bytes, 1));
      };
      await cache.get('p', WHOLE, decode);
      await cache.get('p', WHOLE, decode);
      expect(decodes).toBe(2);
      expect(cache.size).toBe(0);
    }
    const cache = new DecodedPhotoCache(1000);
    await expect(cache.get('bad', WHOLE, () => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect((await cache.get('bad', WHOLE, () => Promise.resolve(pixels(3, 2)))).data[0]).toBe(2);
  });

  it("keeps a panorama's first band, decodes it whole for a view that needs other rows, and waits only for a decode that holds its rows", async () => {
    let decoded: RowSpan[] = [];
    const getter = (cache: DecodedPhotoCache) => (span: RowSpan) =>
      cache.get('pano', span, async (wanted) => {
        decoded.push(wanted);
        await new Promise((resolve) => setTimeout(resolve, 5));
        // As decodeBand does: the whole rows that hold the span, and one more each side.
        const top = Math.max(0, Math.floor(wanted.from * 100) - 1);
        return band(top, Math.min(100, Math.ceil(wanted.to * 100) + 1) - top);
      });
    let get = getter(new DecodedPhotoCache(10_000));
    const horizon = await get({ from: 0.3, to: 0.7 });
    expect(await get({ from: 0.35, to: 0.65 })).toBe(horizon);
    const up = await get({ from: 0.1, to: 0.5 });
    expect([up.top, up.height]).toEqual([0, 100]);
    expect(await get({ from: 0.9, to: 1 })).toBe(up);
    expect(decoded).toEqual([{ from: 0.3, to: 0.7 }, WHOLE]);

    // Nothing kept, views at once: within the rows of a decode under way, it waits; outside, it does not.
    decoded = [];
    get = getter(new DecodedPhotoCache(0));
    const [a, b, c] = await Promise.all([
      get({ from: 0.6, to: 0.9 }),
      get({ from: 0.65, to: 0.85 }),
      get({ from: 0.0, to: 0.05 }),
    ]);
    expect(b).toBe(a);
    expect(holds(a, { from: 0.6, to: 0.9 }) && holds(c, { from: 0.0, to: 0.05 })).toBe(true);
    expect(decoded).toEqual([
      { from: 0.6, to: 0.9 },
      { from: 0.0, to: 0.05 },
    ]);
  });
});
