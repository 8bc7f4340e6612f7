import exifr from 'exifr';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { sharp } from '../image-library';
import type { PanoramaGeometry } from '../../imagery/photo-details/photo-details';
import type { ViewablePhoto } from '../photos.repository';
import { MAX_PHOTO_PIXELS } from '../photo-limits';
import type { ImageVariant } from '../store/image-store';
import { DERIVATIVE_SIZES, DerivativeVariant } from '../store/photo-derivatives';
import { PhotoProjection, photoResolution, RawImage, ViewAngles, Size, viewResolution } from './view-projection';

// What a view is rendered from: the photo's projection (its GPano geometry and pose heading, or a flat
// photo's field of view), and the smallest stored image of it with the pixels the view needs: a
// derivative (thumb, sd, hd) when it is fine enough, else the original.

/** A flat photo's horizontal field of view when its EXIF gives no 35 mm equivalent focal length. */
export const DEFAULT_FLAT_FOV = 65;
/**
 * A source is fine enough with this share of the view's own resolution at its centre (its coarsest
 * part): a 2048 px panorama (the hd derivative) serves views up to about 720 px wide at fov 90.
 */
export const MIN_SOURCE_RESOLUTION = 0.9;
/** The diagonal of a 35 mm frame (36 x 24 mm), which a 35 mm equivalent focal length is relative to. */
const FULL_FRAME_DIAGONAL_MM = Math.hypot(36, 24);
/** The part of an original its EXIF is read from (the APP1 segment comes first and holds at most 64 KB). */
const EXIF_BYTES = 128 * 1024;

/** The photo's pixels as its derivatives are: upright (EXIF orientations 5 to 8 swap the sides). */
export function uprightSize(photo: Pick<ViewablePhoto, 'width' | 'height' | 'orientation'>): Size {
  const swap = photo.orientation !== null && photo.orientation >= 5 && photo.orientation <= 8;
  return swap ? { width: photo.height, height: photo.width } : { width: photo.width, height: photo.height };
}

/** A flat photo's horizontal field of view (degrees) from its 35 mm equivalent focal length. */
export function flatFov(size: Size, focal35mm: number | undefined): number {
  if (focal35mm === undefined || !(focal35mm >= 1 && focal35mm <= 5000)) return DEFAULT_FLAT_FOV;
  const halfWidthMm = ((FULL_FRAME_DIAGONAL_MM / 2) * size.width) / Math.hypot(size.width, size.height);
  return (2 * Math.atan(halfWidthMm / focal35mm) * 180) / Math.PI;
}

/** A panorama's geometry: its GPano tags', else the whole sphere in its pixels. */
export function panoramaGeometryOf(
  photo: Pick<ViewablePhoto, 'panorama' | 'width' | 'height' | 'orientation'>,
): PanoramaGeometry {
  const { width, height } = uprightSize(photo);
  return (
    photo.panorama ?? {
      fullWidth: width,
      fullHeight: height,
      croppedWidth: width,
      croppedHeight: height,
      croppedLeft: 0,
      croppedTop: 0,
    }
  );
}

/** The photo's projection; `fov` is a flat photo's (flatFov). */
export function projectionOf(photo: ViewablePhoto, fov: number): PhotoProjection {
  if (photo.projection === 'perspective') return { kind: 'perspective', heading: photo.heading, fov };
  const geometry = panoramaGeometryOf(photo);
  return { kind: 'equirectangular', geometry, centreHeading: geometry.poseHeading ?? photo.heading };
}

/** The stored image a view is rendered from: the smallest one fine enough, else the original. */
export function sourceFor(
  photo: ViewablePhoto,
  projection: PhotoProjection,
  angles: ViewAngles,
  size: Size,
): { variant: ImageVariant; width: number } {
  const upright = uprightSize(photo);
  const long = Math.max(upright.width, upright.height);
  const needed = viewResolution(angles, size) * MIN_SOURCE_RESOLUTION;
  const sizes = Object.entries(DERIVATIVE_SIZES) as [DerivativeVariant, number][];
  for (const [variant, side] of sizes.sort((a, b) => a[1] - b[1])) {
    const width = Math.round(upright.width * Math.min(1, side / long));
    if (side < long && photoResolution(projection, width) >= needed) return { variant, width };
  }
  return { variant: 'original', width: upright.width };
}

/** The 35 mm equivalent focal length an original's EXIF gives, if any. */
export async function focal35mmOf(head: Readable): Promise<number | undefined> {
  const bytes = await buffer(head).catch(() => null);
  if (!bytes) return undefined;
  const tags = (await exifr
    .parse(bytes, { tiff: true, exif: true, gps: false, xmp: false, pick: ['FocalLengthIn35mmFormat'] })
    .catch(() => undefined)) as { FocalLengthIn35mmFormat?: unknown } | undefined;
  const value = tags?.FocalLengthIn35mmFormat;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export const EXIF_RANGE = { start: 0, end: EXIF_BYTES - 1 };

/** A stored image decoded to RGB (or grey) pixels, upright. */
export async function decode(bytes: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS })
    .rotate()
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}
