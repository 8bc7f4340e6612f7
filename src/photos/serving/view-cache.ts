import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// Rendered views on disk, by the hash of their normal parameters: views/<ab>/<key>.jpg under the image
// store (IMAGE_STORE_DIR), written whole (to views/tmp, then renamed into place). Bounded: past
// VIEW_CACHE_MB the oldest written views are removed until a tenth of the bound is free again. Several
// processes may share the folder: each adds what it writes to its own count, and an eviction counts
// the folder afresh. A folder the server may not write to turns the cache off (views are rendered each time).

const KEY = /^[0-9a-f]{64}$/;
/** After an eviction the cache holds at most this share of its bound. */
const AFTER_EVICTION = 0.9;

export class ViewCache {
  private readonly logger = new Logger(ViewCache.name);
  private counted: Promise<number> | undefined;
  private evicting: Promise<void> | undefined;
  private disabled = false;

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {
    if (maxBytes <= 0) this.disabled = true;
  }

  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a view key: ${key}`);
    return join(this.dir, key.slice(0, 2), `${key}.jpg`);
  }

  /** The cached view, or null. */
  async get(key: string): Promise<Buffer | null> {
    if (this.disabled) return null;
    return readFile(this.path(key)).catch(() => null);
  }

  /** Keeps a rendered view; never fails (a view not cached is rendered again next time). */
  async put(key: string, bytes: Buffer): Promise<void> {
    if (this.disabled) return;
    try {
      const target = this.path(key);
      const tmp = join(this.dir, 'tmp');
      await mkdir(tmp, { recursive: true });
      const temp = join(tmp, `${key}-${randomBytes(6).toString('hex')}`);
      await writeFile(temp, bytes, { mode: 0o644 });
      await mkdir(join(target, '..'), { recursive: true });
      await rename(temp, target).catch(async (error: unknown) => {
        await rm(temp, { force: true });
        throw error;
      });
    } catch (error) {
      this.disabled = true;
      this.logger.warn(`view cache off: cannot write to ${this.dir} (${(error as Error).message})`);
      return;
    }
    const total = (await (this.counted ??= this.count())) + bytes.length;
    this.counted = Promise.resolve(total);
    if (total > this.maxBytes) await (this.evicting ??= this.evict().finally(() => (this.evicting = undefined)));
  }

  /** Every cached view with its size and age, oldest first. */
  private async entries(): Promise<{ path: string; size: number; mtimeMs: number }[]> {
    const shards = await readdir(this.dir).catch(() => [] as string[]);
    const entries: { path: string; size: number; mtimeMs: number }[] = [];
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of await readdir(join(this.dir, shard)).catch(() => [] as string[])) {
        const path = join(this.dir, shard, name);
        const s = await stat(path).catch(() => null);
        if (s?.isFile()) entries.push({ path, size: s.size, mtimeMs: s.mtimeMs });
      }
    }
    return entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
  }

  private async count(): Promise<number> {
    return (await this.entries()).reduce((sum, e) => sum + e.size, 0);
  }

  /** Removes the oldest views until the cache holds at most AFTER_EVICTION of its bound. */
  private async evict(): Promise<void> {
    const entries = await this.entries();
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    for (const e of entries) {
      if (total <= this.maxBytes * AFTER_EVICTION) break;
      await rm(e.path, { force: true });
      total -= e.size;
    }
    this.counted = Promise.resolve(total);
  }
}
