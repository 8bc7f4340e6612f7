import type { PanoramaGeometry } from '../../imagery/photo-details/photo-details';
import { fastAtan2, focalPx, RawImage, Rows, Size, ViewAngles, wrapsAround } from './view-projection';

// The view of an equirectangular panorama in one pass per pixel: the ray through the pixel, its
// longitude and latitude, and the bilinear blend of the four panorama pixels around that point, with
// no per-pixel map in between. The same geometry as viewMap and remapBilinear (view-projection.ts): a
// ray is forward + a right + b up, where a depends only on the column and b only on the row, and the
// right axis is level, so a row's rays share their height (z) and only x and y vary along it.

const RAD = Math.PI / 180;

/** The part of a panorama's projection the remap needs. */
export interface PanoramaProjection {
  geometry: PanoramaGeometry;
  centreHeading: number;
}

/** Pixels of `image` per radian of longitude and latitude, and where longitude and latitude 0 lie. */
function samplingOf(image: RawImage, projection: PanoramaProjection) {
  const g = projection.geometry;
  const sx = image.width / g.croppedWidth;
  const sy = image.height / g.croppedHeight;
  return {
    wraps: wrapsAround(g),
    kx: (g.fullWidth * sx) / (2 * Math.PI),
    ky: (g.fullHeight * sy) / Math.PI,
    // The sample grid is offset by half a pixel: pixel centres are at k + 0.5.
    x0: (g.fullWidth / 2 - g.croppedLeft) * sx - 0.5,
    y0: (g.fullHeight / 2 - g.croppedTop) * sy - 0.5,
    centre: projection.centreHeading * RAD,
  };
}

/** Renders the view's rows of a panorama into `out` (raw pixels of `size`, with the image's channels). */
export function remapPanoramaRows(
  image: RawImage,
  projection: PanoramaProjection,
  angles: ViewAngles,
  size: Size,
  out: Buffer,
  rows: Rows,
): void {
  const { wraps, kx, ky, x0, y0, centre } = samplingOf(image, projection);
  const { width: w, height: h, channels: c, data } = image;
  const hr = angles.heading * RAD;
  const pr = angles.pitch * RAD;
  const [fx, fy, fz] = [Math.sin(hr) * Math.cos(pr), Math.cos(hr) * Math.cos(pr), Math.sin(pr)];
  const [rx, ry] = [Math.cos(hr), -Math.sin(hr)];
  const [ux, uy, uz] = [-Math.sin(hr) * Math.sin(pr), -Math.cos(hr) * Math.sin(pr), Math.cos(pr)];
  const focal = focalPx(size.width, angles.fov);
  const columns = new Float64Array(size.width);
  for (let i = 0; i < size.width; i++) columns[i] = (i + 0.5 - size.width / 2) / focal;
  const stride = w * c;
  for (let j = rows.from; j < rows.to; j++) {
    const b = (size.height / 2 - j - 0.5) / focal;
    const rowX = fx + b * ux;
    const rowY = fy + b * uy;
    const z = fz + b * uz;
    let o = j * size.width * c;
    for (let i = 0; i < size.width; i++, o += c) {
      const a = columns[i];
      const x = rowX + a * rx;
      const y = rowY + a * ry;
      let lon = fastAtan2(x, y) - centre;
      if (lon < -Math.PI) lon += 2 * Math.PI;
      else if (lon >= Math.PI) lon -= 2 * Math.PI;
      const px = x0 + lon * kx;
      const py = y0 - fastAtan2(z, Math.sqrt(x * x + y * y)) * ky;
      if (!(py >= -0.5 && py <= h - 0.5) || !(wraps || (px >= -0.5 && px <= w - 0.5))) {
        for (let ch = 0; ch < c; ch++) out[o + ch] = 0;
        continue;
      }
      let left = Math.floor(px);
      const tx = px - left;
      let right = left + 1;
      if (wraps) {
        if (left < 0) left += w;
        else if (left >= w) left -= w;
        if (right >= w) right -= w;
        else if (right < 0) right += w;
      } else {
        if (left < 0) left = 0;
        if (right > w - 1) right = w - 1;
      }
      let top = Math.floor(py);
      const ty = py - top;
      let bottom = top + 1;
      if (top < 0) top = 0;
      if (bottom > h - 1) bottom = h - 1;
      const wa = (1 - tx) * (1 - ty);
      const wb = tx * (1 - ty);
      const wd = (1 - tx) * ty;
      const we = tx * ty;
      const pa = top * stride + left * c;
      const pb = top * stride + right * c;
      const pd = bottom * stride + left * c;
      const pe = bottom * stride + right * c;
      if (c === 3) {
        out[o] = data[pa] * wa + data[pb] * wb + data[pd] * wd + data[pe] * we + 0.5;
        out[o + 1] = data[pa + 1] * wa + data[pb + 1] * wb + data[pd + 1] * wd + data[pe + 1] * we + 0.5;
        out[o + 2] = data[pa + 2] * wa + data[pb + 2] * wb + data[pd + 2] * wd + data[pe + 2] * we + 0.5;
      } else {
        for (let ch = 0; ch < c; ch++) {
          out[o + ch] = data[pa + ch] * wa + data[pb + ch] * wb + data[pd + ch] * wd + data[pe + ch] * we + 0.5;
        }
      }
    }
  }
}
