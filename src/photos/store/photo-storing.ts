import { readPhotoFile, contentHash } from '../import/photo-scan';
import type { PhotoFile } from '../import/photo-folder.walker';
import { PHOTO_REJECTIONS, refuse } from '../photo-rejection';
import type { ImageStore } from './image-store';
import { DERIVATIVE_SIZES, DerivativeVariant, makeDerivatives } from './photo-derivatives';

// A photo into the image store: its original as it came, and its derivatives, each written only when
// absent (a re-run after a crash makes what is missing; a photo imported again makes nothing).
export async function storePhoto(store: ImageStore, photo: { file: PhotoFile; hash: string }): Promise<void> {
  const variants = Object.keys(DERIVATIVE_SIZES) as DerivativeVariant[];
  const missing = await Promise.all(variants.map(async (v) => !(await store.has(photo.hash, v))));
  const originalMissing = !(await store.has(photo.hash, 'original'));
  if (!originalMissing && !missing.some(Boolean)) return;

  const bytes = await readPhotoFile(photo.file);
  if (contentHash(bytes) !== photo.hash) refuse(PHOTO_REJECTIONS.file, 'changed while it was being imported');
  // Derivatives first: a file that does not decode is refused before anything of it is stored.
  const derivatives = await makeDerivatives(bytes);
  for (const [i, v] of variants.entries()) if (missing[i]) await store.put(photo.hash, v, derivatives[v]);
  if (originalMissing) await store.put(photo.hash, 'original', bytes);
}
