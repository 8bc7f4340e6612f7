import type { Readable } from 'node:stream';

// Where the service keeps photos: the original of each, by its content hash, and its derivatives. One
// small interface, so that another kind of store (an object store) can take the file store's place.

export const IMAGE_VARIANTS = ['thumb', 'sd', 'hd', 'original'] as const;
export type ImageVariant = (typeof IMAGE_VARIANTS)[number];

export interface ImageStore {
  /** Whether the variant of this content is stored (whole: a write is never seen half done). */
  has(hash: string, variant: ImageVariant): Promise<boolean>;
  /** Stores the bytes atomically: afterwards the variant is there whole, or (on a crash) not at all. */
  put(hash: string, variant: ImageVariant, bytes: Buffer): Promise<void>;
  /** The stored variant's size, or null when it is not stored. */
  size(hash: string, variant: ImageVariant): Promise<number | null>;
  /** The stored bytes, from start to end inclusive when given. */
  read(hash: string, variant: ImageVariant, range?: { start: number; end: number }): Readable;
}

export const IMAGE_STORE = Symbol('IMAGE_STORE');
