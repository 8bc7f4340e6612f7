import { LRUCache } from 'lru-cache';
import type { RawImage } from './view-projection';

// Recently decoded photos' pixels in memory, by content hash and stored variant, so that the next view
// of the same photo (another heading of a panorama) only remaps and encodes. Bounded by VIEW_PIXELS_MB
// of raw pixels (width x height x channels bytes each), the least recently used dropped past it; a photo
// bigger than the whole bound is not kept; `0` keeps none. Photos decoded at the same time for the same
// key are decoded once.

export class DecodedPhotoCache {
  private readonly images: LRUCache<string, RawImage> | null;
  private readonly decoding = new Map<string, Promise<RawImage>>();

  constructor(readonly maxBytes: number) {
    this.images =
      maxBytes > 0
        ? new LRUCache<string, RawImage>({ maxSize: maxBytes, sizeCalculation: (image) => image.data.length || 1 })
        : null;
  }

  /** The decoded photo of this key, from memory or from `decode` (then kept). */
  async get(key: string, decode: () => Promise<RawImage>): Promise<RawImage> {
    const kept = this.images?.get(key);
    if (kept) return kept;
    let pending = this.decoding.get(key);
    if (!pending) {
      pending = decode()
        .then((image) => {
          if (this.images && image.data.length <= this.maxBytes) this.images.set(key, image);
          return image;
        })
        .finally(() => this.decoding.delete(key));
      this.decoding.set(key, pending);
    }
    return pending;
  }

  /** Bytes of pixels kept. */
  get size(): number {
    return this.images?.calculatedSize ?? 0;
  }
}
