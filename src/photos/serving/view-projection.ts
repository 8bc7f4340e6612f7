import type { PanoramaGeometry } from '../../imagery/photo-details/photo-details';

// The geometry of a rendered view: a pinhole (rectilinear, gnomonic) camera at the photo's position,
// turned to a compass heading and a pitch, with a horizontal field of view; each of its pixels is a ray,
// and each ray lands on a point of the photo:
// - an equirectangular panorama: longitude and latitude of the ray, in the full sphere of its GPano
//   geometry (the centre column of the full panorama faces its pose heading), cropped as GPano says;
// - a flat photo: another pinhole camera, facing the photo's heading at pitch 0, with its own field of view.
// The view's pixels are then sampled bilinearly from the photo at those points (remapBilinear; a
// panorama's in one pass without the map, panorama-remap.ts).
//
// Directions: x east, y north, z up; a compass heading turns clockwise from north, a pitch up from the
// horizon. Image coordinates: pixel (i, j) has its centre at (i + 0.5, j + 0.5), rows run downwards.

const RAD = Math.PI / 180;

export interface ViewAngles {
  /** Compass degrees of the view's centre. */
  heading: number;
  /** Degrees above the horizon of the view's centre. */
  pitch: number;
  /** Horizontal field of view, degrees. */
  fov: number;
}

export interface Size {
  width: number;
  height: number;
}

export type PhotoProjection =
  | { kind: 'equirectangular'; geometry: PanoramaGeometry; centreHeading: number }
  | { kind: 'perspective'; heading: number; fov: number };

export interface RawImage extends Size {
  data: Buffer;
  channels: number;
}

type Vec = readonly [number, number, number];

/** The unit direction of a compass heading and a pitch (degrees). */
export function direction(heading: number, pitch: number): Vec {
  const h = heading * RAD;
  const p = pitch * RAD;
  return [Math.sin(h) * Math.cos(p), Math.cos(h) * Math.cos(p), Math.sin(p)];
}

/** The heading [0, 360) and pitch [-90, 90] of a direction (any length). */
export function anglesOf([x, y, z]: Vec): { heading: number; pitch: number } {
  const heading = Math.atan2(x, y) / RAD;
  return { heading: (heading + 360) % 360, pitch: Math.atan2(z, Math.sqrt(x * x + y * y)) / RAD };
}

/** A camera facing `heading` and `pitch`: its forward, right and up axes. */
function basis(heading: number, pitch: number): { forward: Vec; right: Vec; up: Vec } {
  const h = heading * RAD;
  const p = pitch * RAD;
  return {
    forward: direction(heading, pitch),
    right: [Math.cos(h), -Math.sin(h), 0],
    up: [-Math.sin(h) * Math.sin(p), -Math.cos(h) * Math.sin(p), Math.cos(p)],
  };
}

/** The focal length in pixels of an image `width` wide with this horizontal field of view (degrees). */
export function focalPx(width: number, fov: number): number {
  return width / 2 / Math.tan((fov * RAD) / 2);
}

/** The direction of the ray through the point (x, y) of the view (pixel units; centres at k + 0.5). */
export function viewRay(angles: ViewAngles, size: Size, x: number, y: number): Vec {
  const { forward: f, right: r, up: u } = basis(angles.heading, angles.pitch);
  const focal = focalPx(size.width, angles.fov);
  const a = (x - size.width / 2) / focal;
  const b = (size.height / 2 - y) / focal;
  return [f[0] + a * r[0] + b * u[0], f[1] + a * r[1] + b * u[1], f[2] + a * r[2] + b * u[2]];
}

/**
 * Pixels per radian the view has at its centre (its coarsest: towards the edges a gnomonic view
 * spreads each degree over more pixels). A source with this many pixels per radian is enough.
 */
export function viewResolution(angles: ViewAngles, size: Size): number {
  return focalPx(size.width, angles.fov);
}

/** Pixels per radian of a photo decoded `width` pixels wide (at its centre, for a flat photo). */
export function photoResolution(projection: PhotoProjection, width: number): number {
  if (projection.kind === 'perspective') return focalPx(width, projection.fov);
  const g = projection.geometry;
  return ((width / g.croppedWidth) * g.fullWidth) / (2 * Math.PI);
}

/**
 * atan2 within 1e-5 radians (a hundredth of a pixel of a 5760 px panorama), several times faster than
 * Math.atan2: a minimax polynomial for atan on [0, 1], folded to every octant.
 */
export function fastAtan2(y: number, x: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  if (ax === 0 && ay === 0) return 0;
  const swap = ay > ax;
  const t = swap ? ax / ay : ay / ax;
  const t2 = t * t;
  let r =
    t *
    (0.99997726 + t2 * (-0.33262347 + t2 * (0.19354346 + t2 * (-0.11643287 + t2 * (0.05265332 + t2 * -0.0117212)))));
  if (swap) r = Math.PI / 2 - r;
  if (x < 0) r = Math.PI - r;
  return y < 0 ? -r : r;
}

/** Where each ray lands in an image of the photo `image` pixels big (continuous pixel coordinates). */
type RayMapper = (x: number, y: number, z: number, out: Float64Array) => boolean;

function panoramaMapper(p: Extract<PhotoProjection, { kind: 'equirectangular' }>, image: Size): RayMapper {
  const g = p.geometry;
  const sx = image.width / g.croppedWidth;
  const sy = image.height / g.croppedHeight;
  const kx = (g.fullWidth * sx) / (2 * Math.PI);
  const ky = (g.fullHeight * sy) / Math.PI;
  const x0 = (g.fullWidth / 2 - g.croppedLeft) * sx;
  const y0 = (g.fullHeight / 2 - g.croppedTop) * sy;
  const centre = p.centreHeading * RAD;
  return (x, y, z, out) => {
    let lon = fastAtan2(x, y) - centre;
    if (lon < -Math.PI) lon += 2 * Math.PI;
    else if (lon >= Math.PI) lon -= 2 * Math.PI;
    out[0] = x0 + lon * kx;
    out[1] = y0 - fastAtan2(z, Math.sqrt(x * x + y * y)) * ky;
    return true;
  };
}

function perspectiveMapper(p: Extract<PhotoProjection, { kind: 'perspective' }>, image: Size): RayMapper {
  const { forward: f, right: r, up: u } = basis(p.heading, 0);
  const focal = focalPx(image.width, p.fov);
  const cx = image.width / 2;
  const cy = image.height / 2;
  return (x, y, z, out) => {
    const depth = x * f[0] + y * f[1] + z * f[2];
    if (depth <= 1e-9) return false;
    out[0] = cx + (focal * (x * r[0] + y * r[1] + z * r[2])) / depth;
    out[1] = cy - (focal * (x * u[0] + y * u[1] + z * u[2])) / depth;
    return true;
  };
}

function mapperOf(projection: PhotoProjection, image: Size): RayMapper {
  return projection.kind === 'equirectangular'
    ? panoramaMapper(projection, image)
    : perspectiveMapper(projection, image);
}

/** The point of the photo (continuous pixel coordinates) a direction lands on, or null (behind a flat photo). */
export function photoPoint(
  projection: PhotoProjection,
  image: Size,
  heading: number,
  pitch: number,
): { x: number; y: number } | null {
  const out = new Float64Array(2);
  const [x, y, z] = direction(heading, pitch);
  return mapperOf(projection, image)(x, y, z, out) ? { x: out[0], y: out[1] } : null;
}

/** Whether a point lies on the image (a panorama's longitudes wrap when it covers all of them). */
export function onImage(projection: PhotoProjection, image: Size, point: { x: number; y: number } | null): boolean {
  if (!point) return false;
  const wraps = projection.kind === 'equirectangular' && wrapsAround(projection.geometry);
  return (wraps || (point.x >= 0 && point.x <= image.width)) && point.y >= 0 && point.y <= image.height;
}

export function wrapsAround(g: PanoramaGeometry): boolean {
  return g.croppedLeft === 0 && g.croppedWidth >= g.fullWidth;
}

/** The view's rows from `from` to `to` (exclusive); all of them by default. */
export interface Rows {
  from: number;
  to: number;
}

/**
 * For each pixel of the view's rows, the point of the photo it shows: x and y in continuous pixel
 * coordinates of `image`, NaN where the ray misses the photo.
 */
export function viewMap(
  projection: PhotoProjection,
  image: Size,
  angles: ViewAngles,
  size: Size,
  rows: Rows = { from: 0, to: size.height },
): { x: Float32Array; y: Float32Array } {
  const { width, height } = size;
  const n = width * (rows.to - rows.from);
  const map = { x: new Float32Array(n), y: new Float32Array(n) };
  const { forward: f, right: r, up: u } = basis(angles.heading, angles.pitch);
  const focal = focalPx(width, angles.fov);
  const land = mapperOf(projection, image);
  const out = new Float64Array(2);
  for (let j = rows.from; j < rows.to; j++) {
    const b = (height / 2 - j - 0.5) / focal;
    const rowX = f[0] + b * u[0];
    const rowY = f[1] + b * u[1];
    const rowZ = f[2] + b * u[2];
    for (let i = 0; i < width; i++) {
      const a = (i + 0.5 - width / 2) / focal;
      const k = (j - rows.from) * width + i;
      if (land(rowX + a * r[0], rowY + a * r[1], rowZ + a * r[2], out)) {
        map.x[k] = out[0];
        map.y[k] = out[1];
      } else {
        map.x[k] = NaN;
        map.y[k] = NaN;
      }
    }
  }
  return map;
}

/**
 * The view's pixels: each the bilinear blend of the four photo pixels around its point. Points off the
 * photo are black; a panorama covering every longitude wraps around, so its seam is continuous.
 */
export function remapBilinear(
  image: RawImage,
  map: { x: Float32Array; y: Float32Array },
  out: Buffer,
  offset: number,
  wraps: boolean,
): void {
  const { width: w, height: h, channels: c, data } = image;
  const n = map.x.length;
  for (let k = 0; k < n; k++) {
    // Pixel centres are at k + 0.5: the sample grid is offset by half a pixel.
    const px = map.x[k] - 0.5;
    const py = map.y[k] - 0.5;
    if (!(py >= -0.5 && py <= h - 0.5) || !(wraps || (px >= -0.5 && px <= w - 0.5))) continue;
    let x0 = Math.floor(px);
    const fx = px - x0;
    let x1 = x0 + 1;
    if (wraps) {
      if (x0 < 0 || x0 >= w) x0 = ((x0 % w) + w) % w;
      if (x1 < 0 || x1 >= w) x1 = ((x1 % w) + w) % w;
    } else {
      if (x0 < 0) x0 = 0;
      if (x1 > w - 1) x1 = w - 1;
    }
    let y0 = Math.floor(py);
    const fy = py - y0;
    let y1 = y0 + 1;
    if (y0 < 0) y0 = 0;
    if (y1 > h - 1) y1 = h - 1;
    // The four neighbours' weights.
    const wa = (1 - fx) * (1 - fy);
    const wb = fx * (1 - fy);
    const wd = (1 - fx) * fy;
    const we = fx * fy;
    const a = (y0 * w + x0) * c;
    const b = (y0 * w + x1) * c;
    const d = (y1 * w + x0) * c;
    const e = (y1 * w + x1) * c;
    const o = (offset + k) * c;
    if (c === 3) {
      out[o] = data[a] * wa + data[b] * wb + data[d] * wd + data[e] * we + 0.5;
      out[o + 1] = data[a + 1] * wa + data[b + 1] * wb + data[d + 1] * wd + data[e + 1] * we + 0.5;
      out[o + 2] = data[a + 2] * wa + data[b + 2] * wb + data[d + 2] * wd + data[e + 2] * we + 0.5;
    } else {
      for (let ch = 0; ch < c; ch++) {
        out[o + ch] = data[a + ch] * wa + data[b + ch] * wb + data[d + ch] * wd + data[e + ch] * we + 0.5;
      }
    }
  }
}
