import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ViewCache } from '../../src/photos/serving/view-cache';

// The disk cache of rendered views on a real file system: what is put is got back whole, and past its
// bound the oldest written views go until a tenth of it is free.

const key = (n: number) => n.toString(16).padStart(64, '0');

describe('ViewCache', () => {
  const root = mkdtempSync(join(tmpdir(), 'lis-view-cache-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps views, and removes the oldest past its bound', async () => {
    const dir = join(root, 'views');
    const cache = new ViewCache(dir, 10_000);
    for (let n = 1; n <= 3; n++) await cache.put(key(n), Buffer.alloc(3000, n));
    expect((await cache.get(key(2)))?.equals(Buffer.alloc(3000, 2))).toBe(true);
    expect(await cache.get(key(9))).toBeNull();
    // Ages as written: 1 oldest.
    for (let n = 1; n <= 3; n++) {
      const path = join(dir, key(n).slice(0, 2), `${key(n)}.jpg`);
      utimesSync(path, new Date(1_000_000 * n), new Date(1_000_000 * n));
    }
    await cache.put(key(4), Buffer.alloc(3000, 4));
    // 12,000 bytes: the oldest goes, which leaves 9,000 (0.9 of the bound).
    expect(await cache.get(key(1))).toBeNull();
    expect((await cache.get(key(2)))?.length).toBe(3000);
    expect((await cache.get(key(3)))?.length).toBe(3000);
    expect((await cache.get(key(4)))?.length).toBe(3000);
    const files = readdirSync(join(dir, key(1).slice(0, 2)));
    expect(files.reduce((sum, f) => sum + statSync(join(dir, key(1).slice(0, 2), f)).size, 0)).toBeLessThanOrEqual(
      9000,
    );
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('keeps nothing with a bound of 0, or where it may not write, and never fails', async () => {
    const off = new ViewCache(join(root, 'off'), 0);
    await off.put(key(1), Buffer.alloc(10));
    expect(await off.get(key(1))).toBeNull();
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    chmodSync(file, 0o444);
    const blocked = new ViewCache(join(file, 'views'), 10_000);
    await expect(blocked.put(key(1), Buffer.alloc(10))).resolves.toBeUndefined();
    expect(await blocked.get(key(1))).toBeNull();
  });
});
