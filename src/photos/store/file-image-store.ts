import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ImageStore, ImageVariant } from './image-store';

// The image store on a local file system (IMAGE_STORE_DIR): content-addressed, so a photo imported twice,
// moved or renamed is stored once.
//   originals/ab/<sha256>.jpg          the camera file as it came
//   derivatives/ab/<sha256>-<size>.jpg thumb, sd, hd
//   tmp/                               writes in progress: each is written and flushed here, then renamed
//                                      into place, so a killed import leaves nothing half written in place;
//                                      what it left in tmp/ is removed by the next store opened over it.

const HASH = /^[0-9a-f]{64}$/;
/** A write in tmp/ older than this is one a killed process left behind. */
const ABANDONED_AFTER_MS = 10 * 60_000;

export class FileImageStore implements ImageStore {
  private constructor(readonly root: string) {}

  /** Opens (and creates) the store, removing abandoned writes. */
  static async open(root: string): Promise<FileImageStore> {
    const store = new FileImageStore(root);
    await mkdir(store.tmp, { recursive: true });
    const now = Date.now();
    for (const name of await readdir(store.tmp)) {
      const path = join(store.tmp, name);
      const s = await stat(path).catch(() => null);
      if (s && now - s.mtimeMs > ABANDONED_AFTER_MS) await rm(path, { force: true, recursive: true });
    }
    return store;
  }

  /** The store as the server reads it: nothing is created or removed. */
  static reader(root: string): FileImageStore {
    return new FileImageStore(root);
  }

  private get tmp(): string {
    return join(this.root, 'tmp');
  }

  path(hash: string, variant: ImageVariant): string {
    if (!HASH.test(hash)) throw new Error(`not a content hash: ${hash}`);
    const shard = hash.slice(0, 2);
    return variant === 'original'
      ? join(this.root, 'originals', shard, `${hash}.jpg`)
      : join(this.root, 'derivatives', shard, `${hash}-${variant}.jpg`);
  }

  async has(hash: string, variant: ImageVariant): Promise<boolean> {
    return (await this.size(hash, variant)) !== null;
  }

  async size(hash: string, variant: ImageVariant): Promise<number | null> {
    const s = await stat(this.path(hash, variant)).catch(() => null);
    return s?.isFile() ? s.size : null;
  }

  async put(hash: string, variant: ImageVariant, bytes: Buffer): Promise<void> {
    const target = this.path(hash, variant);
    const temp = join(this.tmp, `${hash}-${variant}-${randomBytes(6).toString('hex')}`);
    const file = await open(temp, 'wx', 0o644);
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await mkdir(join(target, '..'), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  read(hash: string, variant: ImageVariant, range?: { start: number; end: number }): Readable {
    return createReadStream(this.path(hash, variant), range);
  }
}
