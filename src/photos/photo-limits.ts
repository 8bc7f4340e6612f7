// The bounds every camera file is held to before anything else reads it (docs/data.md, "Photos").

/** A file larger than this is refused unread ("too large"). */
export const MAX_PHOTO_BYTES = 100 * 1024 * 1024;
/** Width x height above this is refused before decoding (a decompression bomb; sharp's limit is set to it too). */
export const MAX_PHOTO_PIXELS = 160_000_000;
export { MAX_METADATA_TEXT } from '../imagery/photo-details/photo-details';
/** Photos read, hashed and resized at once (each holds its file and one decoded image in memory). */
export const PHOTO_CONCURRENCY = 2;
/** Entries (files, folders, links) a walk visits before it refuses to go on. */
export const MAX_WALK_ENTRIES = 1_000_000;
