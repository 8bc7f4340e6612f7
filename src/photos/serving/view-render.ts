import { remapPanoramaRows } from './panorama-remap';
import { PhotoProjection, RawImage, remapBilinear, Rows, Size, ViewAngles, viewMap } from './view-projection';

// A view's pixels from a decoded photo: a panorama in one pass (panorama-remap.ts), a flat photo through
// the map of the points its pixels show (viewMap, then remapBilinear).

/** Renders the view's rows into `out` (raw pixels of `size`, with the photo's channels). */
export function renderRows(
  image: RawImage,
  projection: PhotoProjection,
  angles: ViewAngles,
  size: Size,
  out: Buffer,
  rows: Rows,
): void {
  if (projection.kind === 'equirectangular') {
    remapPanoramaRows(image, projection, angles, size, out, rows);
    return;
  }
  remapBilinear(image, viewMap(projection, image, angles, size, rows), out, rows.from * size.width, false);
}

/** The view rendered from a decoded photo: raw pixels of `size`, with the photo's channels. */
export function renderView(image: RawImage, projection: PhotoProjection, angles: ViewAngles, size: Size): Buffer {
  const out = Buffer.alloc(size.width * size.height * image.channels);
  renderRows(image, projection, angles, size, out, { from: 0, to: size.height });
  return out;
}
