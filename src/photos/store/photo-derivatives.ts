import { sharp } from '../image-library';
import { MAX_PHOTO_PIXELS } from '../photo-limits';
import { PHOTO_REJECTIONS, PhotoRejection } from '../photo-rejection';
import type { ImageVariant } from './image-store';

// The sizes the service serves besides the original (Panoramax's thumb/sd/hd), made with sharp (libvips):
// the long side at most this many pixels, never enlarged (a 1600 px photo's hd is 1600 px), turned
// upright by its EXIF orientation, and written without any metadata: no GPS, serial number or camera
// tag leaves the service in a derivative. The original is decoded once, at the size hd needs (libjpeg
// shrinks on load), and sd and thumb are made from that.
export const DERIVATIVE_SIZES = { hd: 2048, sd: 1024, thumb: 256 } as const satisfies Partial<
  Record<ImageVariant, number>
>;
export type DerivativeVariant = keyof typeof DERIVATIVE_SIZES;
export const DERIVATIVE_QUALITY = 82;

export async function makeDerivatives(original: Buffer): Promise<Record<DerivativeVariant, Buffer>> {
  const fit = (size: number) => ({ width: size, height: size, fit: 'inside' as const, withoutEnlargement: true });
  let hd: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
  try {
    hd = await sharp(original, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'warning' })
      .rotate()
      .resize(fit(DERIVATIVE_SIZES.hd))
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new PhotoRejection(PHOTO_REJECTIONS.image, `unreadable image data (${(error as Error).message.trim()})`);
  }
  const { width, height, channels } = hd.info;
  const encode = (size: number) =>
    sharp(hd.data, { raw: { width, height, channels } })
      .resize(fit(size))
      .jpeg({ quality: DERIVATIVE_QUALITY })
      .toBuffer();
  const [hdJpeg, sd, thumb] = await Promise.all([
    encode(DERIVATIVE_SIZES.hd),
    encode(DERIVATIVE_SIZES.sd),
    encode(DERIVATIVE_SIZES.thumb),
  ]);
  return { hd: hdJpeg, sd, thumb };
}
