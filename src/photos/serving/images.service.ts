import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Readable } from 'node:stream';
import { PhotosRepository } from '../photos.repository';
import { IMAGE_STORE, ImageStore, ImageVariant } from '../store/image-store';

// What an image URL serves: the stored variant of the record's photo. The record -> content mapping
// never changes for an id (the id is made from the content), so it is cached; a deleted record's URLs
// stop working within IMAGE_LOOKUP_CACHE_MS. An unknown id is looked up every time (a photo imported since works at once).

export const IMAGE_LOOKUP_CACHE_MS = 60_000;
const IMAGE_LOOKUP_CACHE_SIZE = 50_000;

export interface ServedImage {
  hash: string;
  size: number;
  read(range?: { start: number; end: number }): Readable;
}

@Injectable()
export class ImagesService {
  private readonly hashes = new LRUCache<string, string>({
    max: IMAGE_LOOKUP_CACHE_SIZE,
    ttl: IMAGE_LOOKUP_CACHE_MS,
  });
  // A stored file's size, by content and variant: it never changes either (a file is written once, whole).
  private readonly sizes = new LRUCache<string, number>({ max: IMAGE_LOOKUP_CACHE_SIZE });

  constructor(
    private readonly photos: PhotosRepository,
    @Inject(IMAGE_STORE) private readonly store: ImageStore,
  ) {}

  /** The image, or null when no photo record has this id or its variant is not stored. */
  async find(id: string, variant: ImageVariant): Promise<ServedImage | null> {
    let hash = this.hashes.get(id);
    if (hash === undefined) {
      const stored = await this.photos.findStored(id);
      if (!stored) return null;
      hash = stored.contentHash;
      this.hashes.set(id, hash);
    }
    const key = `${hash}-${variant}`;
    let size = this.sizes.get(key) ?? null;
    if (size === null) {
      size = await this.store.size(hash, variant);
      if (size === null) return null;
      this.sizes.set(key, size);
    }
    return { hash, size, read: (range) => this.store.read(hash, variant, range) };
  }
}
