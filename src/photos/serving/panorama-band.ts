import { sharp } from '../image-library';
import { MAX_PHOTO_PIXELS } from '../photo-limits';
import { anglesOf, focalPx, PhotoProjection, RawImage, Size, ViewAngles, viewRay } from './view-projection';

// A view of a panorama needs only the rows between the highest and the lowest latitude it shows (a
// view at the horizon, fov 90, about two fifths of them), and a JPEG decoded down to its last needed row
// costs that much less: a first view decodes that band of the stored image, all its columns (another
// heading at the same pitch needs the same rows). The band is a panorama of its own, cropped further
// (bandProjection), so the remap is the same.

const RAD = Math.PI / 180;
/** Border pixels between the rays sampled along each edge of the view for its latitudes. */
const EDGE_STEP_PX = 4;
/** Degrees added above and below the latitudes found, for the bilinear neighbours and the sampling. */
const BAND_PAD_DEG = 1;

/** A decoded band: the rows from `top` of an image `wholeHeight` rows high. */
export interface DecodedBand extends RawImage {
  top: number;
  wholeHeight: number;
}

/** A photo decoded whole, as a band of all its rows. */
export function wholeImage(image: RawImage): DecodedBand {
  return { ...image, top: 0, wholeHeight: image.height };
}

/** Parts of a stored image's height, from 0 (its top row) to 1 (its bottom). */
export interface RowSpan {
  from: number;
  to: number;
}

/** The highest and lowest latitude (degrees) the view shows: on its border, or a pole within it. */
export function latitudesOf(angles: ViewAngles, size: Size): { top: number; bottom: number } {
  let top = -90;
  let bottom = 90;
  const see = (x: number, y: number) => {
    const { pitch } = anglesOf(viewRay(angles, size, x, y));
    if (pitch > top) top = pitch;
    if (pitch < bottom) bottom = pitch;
  };
  for (let x = 0; ; x = Math.min(x + EDGE_STEP_PX, size.width)) {
    see(x, 0);
    see(x, size.height);
    if (x === size.width) break;
  }
  for (let y = 0; ; y = Math.min(y + EDGE_STEP_PX, size.height)) {
    see(0, y);
    see(size.width, y);
    if (y === size.height) break;
  }
  // A pole projects onto the view's vertical centre line, cot(pitch) focal lengths from its centre.
  const poleOffset = focalPx(size.width, angles.fov) / Math.tan(Math.abs(angles.pitch) * RAD);
  if (poleOffset <= size.height / 2) {
    if (angles.pitch > 0) top = 90;
    else bottom = -90;
  }
  return { top, bottom };
}

/** The part of a panorama's stored image the view's rows lie in (GPano's crop taken into account). */
export function bandOf(
  projection: Extract<PhotoProjection, { kind: 'equirectangular' }>,
  angles: ViewAngles,
  size: Size,
): RowSpan {
  const g = projection.geometry;
  const { top, bottom } = latitudesOf(angles, size);
  const part = (latitude: number) =>
    ((90 - latitude) / 180) * (g.fullHeight / g.croppedHeight) - g.croppedTop / g.croppedHeight;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return { from: clamp(part(Math.min(90, top + BAND_PAD_DEG))), to: clamp(part(Math.max(-90, bottom - BAND_PAD_DEG))) };
}

/** The whole rows of an image `height` high that hold `span`, with one row more each side. */
export function rowsOf(span: RowSpan, height: number): { top: number; rows: number } {
  const top = Math.max(0, Math.floor(span.from * height) - 1);
  const bottom = Math.min(height, Math.ceil(span.to * height) + 1);
  return { top, rows: Math.max(1, bottom - top) };
}

/** Whether a decoded band holds the rows of `span`. */
export function holds(band: DecodedBand, span: RowSpan): boolean {
  const { top, rows } = rowsOf(span, band.wholeHeight);
  return band.top <= top && band.top + band.height >= top + rows;
}

/** The rows of a stored image (not rotated by EXIF) that hold `span`, decoded to RGB (or grey). */
export async function decodeBand(bytes: Buffer, span: RowSpan): Promise<DecodedBand> {
  const image = sharp(bytes, { limitInputPixels: MAX_PHOTO_PIXELS, sequentialRead: true });
  const { width, height } = await image.metadata();
  const { top, rows } = rowsOf(span, height!);
  const { data, info } = await image
    .extract({ left: 0, top, width: width!, height: rows })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels, top, wholeHeight: height! };
}

/** The band as a panorama of its own: the stored image's crop, narrowed to the band's rows. */
export function bandProjection(
  projection: Extract<PhotoProjection, { kind: 'equirectangular' }>,
  band: DecodedBand,
): PhotoProjection {
  const g = projection.geometry;
  const perRow = g.croppedHeight / band.wholeHeight;
  return {
    ...projection,
    geometry: { ...g, croppedTop: g.croppedTop + band.top * perRow, croppedHeight: band.height * perRow },
  };
}
