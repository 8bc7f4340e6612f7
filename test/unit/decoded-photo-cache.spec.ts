import { DecodedPhotoCache } from '../../src/photos/serving/decoded-photo-cache';
import type { RawImage } from '../../src/photos/serving/view-projection';

// The memory cache of decoded photos: a photo decoded once while kept, the least recently used
// dropped past the bound in bytes of pixels, nothing kept at 0 or bigger than the bound.

const pixels = (bytes: number, fill: number): RawImage => ({
  data: Buffer.alloc(bytes, fill),
  width: bytes / 3,
  height: 1,
  channels: 3,
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
    const [a, b] = await Promise.all([cache.get('p', decode), cache.get('p', decode)]);
    expect(a).toBe(b);
    expect(await cache.get('p', decode)).toBe(a);
    expect(decodes).toBe(1);
    expect(cache.size).toBe(300);
  });

  it('keeps at most its bound in bytes, dropping the least recently used', async () => {
    const cache = new DecodedPhotoCache(900);
    const decoded: string[] = [];
    const get = (key: string) =>
      cache.get(key, () => {
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
      await cache.get('p', decode);
      await cache.get('p', decode);
      expect(decodes).toBe(2);
      expect(cache.size).toBe(0);
    }
    const cache = new DecodedPhotoCache(1000);
    await expect(cache.get('bad', () => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect((await cache.get('bad', () => Promise.resolve(pixels(3, 2)))).data[0]).toBe(2);
  });
});
