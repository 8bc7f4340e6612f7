import type sharpLibrary from 'sharp';

// sharp (libvips), loaded when an image is first read or written: loading it costs a process about
// 20 MB of resident memory, which a CLI that reads no image (an export, `keys list` on the built-in
// database, docs/operations.md#memory) does not pay. Its operation cache is off: bounded memory, each
// photo is decoded once.
let loaded: typeof sharpLibrary | null = null;

/** sharp(input, options), as the package's own function. */
export function sharp(...args: Parameters<typeof sharpLibrary>): ReturnType<typeof sharpLibrary> {
  return library()(...args);
}

function library(): typeof sharpLibrary {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('sharp') as typeof sharpLibrary;
    loaded.cache(false);
  }
  return loaded;
}
