import { LRUCache } from 'lru-cache';
import { DecodedBand, holds, RowSpan } from './panorama-band';

// Recently decoded photos' pixels in memory, by content hash and stored variant, so that the next view
// of the same photo (another heading of a panorama) only remaps and encodes. A panorama's first view
// keeps the band of rows it needs (panorama-band.ts); a view that needs rows the band lacks decodes the
// panorama whole. Bounded by VIEW_PIXELS_MB of raw pixels (width x height x channels bytes each), the least
// recently used dropped past it; a photo bigger than the whole bound is not kept; `0` keeps none.
// Photos decoded at the same time for the same key are decoded once.

/** The decoded photo of a key, or the rows of it a view needs (parts of its height). */
export const WHOLE: RowSpan = { from: 0, to: 1 };

const within = (inner: RowSpan, outer: RowSpan) => outer.from <= inner.from && outer.to >= inner.to;

export class DecodedPhotoCache {
  private readonly images: LRUCache<string, DecodedBand> | null;
  private readonly decoding = new Map<string, { span: RowSpan; pending: Promise<DecodedBand> }>();

  constructor(readonly maxBytes: number) {
    this.images =
      maxBytes > 0
        ? new LRUCache<string, DecodedBand>({ maxSize: maxBytes, sizeCalculation: (image) => image.data.length || 1 })
        : null;
  }

  /**
   * The decoded photo of this key that holds the rows of `span` (WHOLE: all of them), from memory, from
   * a decode under way that holds them, or from `decode` (then kept): asked for `span` the first time,
   * for WHOLE when a band is kept that lacks rows `span` needs.
   */
  async get(key: string, span: RowSpan, decode: (span: RowSpan) => Promise<DecodedBand>): Promise<DecodedBand> {
    const kept = this.images?.get(key);
    if (kept && holds(kept, span)) return kept;
    const under = this.decoding.get(key);
    if (under && within(span, under.span)) return under.pending;
    // A view that needs rows the band kept lacks is looking around: the photo is decoded whole.
    const wanted = kept ? WHOLE : span;
    const pending = decode(wanted)
      .then((image) => {
        if (this.images && image.data.length <= this.maxBytes) this.images.set(key, image);
        return image;
      })
      .finally(() => {
        if (this.decoding.get(key)?.pending === pending) this.decoding.delete(key);
      });
    this.decoding.set(key, { span: wanted, pending });
    return pending;
  }

  /** Bytes of pixels kept. */
  get size(): number {
    return this.images?.calculatedSize ?? 0;
  }
}
