import {
  anglesOf,
  direction,
  fastAtan2,
  focalPx,
  PhotoProjection,
  photoPoint,
  RawImage,
  remapBilinear,
  viewMap,
  viewRay,
} from '../../src/photos/serving/view-projection';
import { renderView } from '../../src/photos/serving/view-render';

// The projection maths against known geometry: synthetic panoramas whose pixels say where they are
// (red: the column, green: the row), marks at known headings and pitches, and flat photos.

const DEG = Math.PI / 180;

/** A w x h RGB image whose pixel (i, j) is paint(i, j). */
function image(w: number, h: number, paint: (i: number, j: number) => [number, number, number]): RawImage {
  const data = Buffer.alloc(w * h * 3);
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) data.set(paint(i, j), (j * w + i) * 3);
  return { data, width: w, height: h, channels: 3 };
}

const pixel = (raw: Buffer, width: number, i: number, j: number) => [
  ...raw.subarray((j * width + i) * 3, (j * width + i) * 3 + 3),
];

const full = (w: number, h: number) => ({
  fullWidth: w,
  fullHeight: h,
  croppedWidth: w,
  croppedHeight: h,
  croppedLeft: 0,
  croppedTop: 0,
});

// 256 x 128: red is the column (longitude), green twice the row (latitude); both vary linearly, so a
// bilinear sample between pixels gives back the point's coordinate.
const coordinates = image(256, 128, (i, j) => [i, 2 * j, 0]);
const panorama = (centreHeading: number): PhotoProjection => ({
  kind: 'equirectangular',
  geometry: full(256, 128),
  centreHeading,
});

/** The longitude (from the panorama's centre) and latitude a coordinates-pixel value stands for. */
const decode = ([r, g]: number[]) => ({ lon: ((r + 0.5) / 256 - 0.5) * 360, lat: (0.5 - (g / 2 + 0.5) / 128) * 180 });

const turn = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);

describe('view rays', () => {
  it('has an atan2 within 1e-5 radians of Math.atan2 in every octant', () => {
    let worst = 0;
    for (let k = 0; k < 3600; k++) {
      const a = (k / 3600) * 2 * Math.PI - Math.PI;
      for (const r of [1e-3, 1, 5000]) {
        const d = Math.abs(fastAtan2(r * Math.sin(a), r * Math.cos(a)) - Math.atan2(r * Math.sin(a), r * Math.cos(a)));
        worst = Math.max(worst, Math.min(d, 2 * Math.PI - d));
      }
    }
    expect(worst).toBeLessThan(1e-5);
    expect(fastAtan2(0, 0)).toBe(0);
  });

  it('turns compass headings and pitches into directions and back', () => {
    expect(direction(0, 0).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 1, 0]);
    expect(direction(90, 0)[0]).toBeCloseTo(1, 12);
    expect(direction(0, 90)[2]).toBeCloseTo(1, 12);
    for (const [h, p] of [
      [0, 0],
      [123.4, -20],
      [359.9, 45],
      [200, 89],
    ]) {
      const a = anglesOf(direction(h, p));
      expect(turn(a.heading, h)).toBeLessThan(1e-9);
      expect(a.pitch).toBeCloseTo(p, 9);
    }
  });

  it('points the centre at the heading and pitch, and the edges half the field of view away', () => {
    const angles = { heading: 350, pitch: 0, fov: 90 };
    const size = { width: 200, height: 100 };
    const centre = anglesOf(viewRay({ ...angles, pitch: 30 }, size, 100, 50));
    expect(centre.heading).toBeCloseTo(350, 9);
    expect(centre.pitch).toBeCloseTo(30, 9);
    expect(anglesOf(viewRay(angles, size, 200, 50)).heading).toBeCloseTo(35, 9);
    expect(anglesOf(viewRay(angles, size, 0, 50)).heading).toBeCloseTo(305, 9);
    // Vertically the same focal length: the top edge is atan(50 / 100) above the horizon.
    expect(anglesOf(viewRay(angles, size, 100, 0)).pitch).toBeCloseTo(Math.atan(50 / focalPx(200, 90)) / DEG, 9);
  });
});

describe('a view of an equirectangular panorama', () => {
  const size = { width: 101, height: 101 };

  it("shows at its centre the column of the heading's longitude (the centre column faces the pose heading)", () => {
    for (const centreHeading of [0, 30, 271.5]) {
      for (const heading of [0, 45, 120.5, 179, 270, 359.5]) {
        const raw = renderView(coordinates, panorama(centreHeading), { heading, pitch: 0, fov: 60 }, size);
        const { lon, lat } = decode(pixel(raw, 101, 50, 50));
        // Within a panorama pixel (360 / 256 degrees); the seam column itself blends 255 and 0.
        if (turn(heading, centreHeading + 180) > 2) expect(turn(lon + centreHeading, heading)).toBeLessThan(1.41);
        expect(Math.abs(lat)).toBeLessThan(1.41);
      }
    }
  });

  it('shows at its centre the row of the pitch', () => {
    for (const pitch of [-60, -10, 0, 25, 80]) {
      const raw = renderView(coordinates, panorama(0), { heading: 10, pitch, fov: 60 }, size);
      const { lon, lat } = decode(pixel(raw, 101, 50, 50));
      expect(Math.abs(lat - pitch)).toBeLessThan(1.41);
      expect(turn(lon, 10)).toBeLessThan(1.41);
    }
  });

  it('finds a mark at a known heading and pitch at the centre, and off centre by the focal length', () => {
    // A red mark 3 x 3 degrees around heading 120 (pose heading 200: longitude -80), pitch 10.
    const w = 1440;
    const marked = image(w, 720, (i, j) => {
      const lon = ((i + 0.5) / w - 0.5) * 360;
      const lat = (0.5 - (j + 0.5) / 720) * 180;
      return Math.abs(lon + 80) < 1.5 && Math.abs(lat - 10) < 1.5 ? [255, 0, 0] : [0, 0, 255];
    });
    const projection: PhotoProjection = { kind: 'equirectangular', geometry: full(w, 720), centreHeading: 200 };
    const red = (raw: Buffer, i: number, j: number) => pixel(raw, 201, i, j)[0] > 200;
    const at = renderView(marked, projection, { heading: 120, pitch: 10, fov: 40 }, { width: 201, height: 151 });
    expect(red(at, 100, 75)).toBe(true);
    // Looking 15 degrees to the left at the horizon: the mark is right of the centre by f tan(15°), above it.
    const beside = renderView(marked, projection, { heading: 105, pitch: 0, fov: 90 }, { width: 201, height: 151 });
    expect(red(beside, 100, 75)).toBe(false);
    const f = focalPx(201, 90);
    const column = Math.round(100.5 + f * Math.tan(15 * DEG) - 0.5);
    // The mark's centre is 10 degrees up along a meridian 15 degrees away: its row is f tan(10°) / cos(15°) up.
    const row = Math.round(75.5 - (f * Math.tan(10 * DEG)) / Math.cos(15 * DEG) - 0.5);
    expect(red(beside, column, row)).toBe(true);
    expect(red(beside, column, 75)).toBe(false);
  });

  it('is continuous across the seam at the back of the panorama', () => {
    // A smooth periodic signal of longitude: any jump at the 0/360 columns would show.
    const smooth = image(512, 256, (i) => [
      Math.round(128 + 100 * Math.sin(((i + 0.5) / 512 - 0.5) * 2 * Math.PI)),
      0,
      0,
    ]);
    const projection: PhotoProjection = { kind: 'equirectangular', geometry: full(512, 256), centreHeading: 90 };
    const width = 301;
    const raw = renderView(smooth, projection, { heading: 270, pitch: 0, fov: 30 }, { width, height: 31 });
    let largest = 0;
    for (let i = 1; i < width; i++)
      largest = Math.max(largest, Math.abs(pixel(raw, width, i, 15)[0] - pixel(raw, width, i - 1, 15)[0]));
    expect(largest).toBeLessThanOrEqual(1);
    // At the seam the signal is sin(±180°) = 0 and at its steepest: 128 there, and falling to the right.
    expect(Math.abs(pixel(raw, width, 150, 15)[0] - 128)).toBeLessThanOrEqual(1);
    expect(pixel(raw, width, 0, 15)[0] - pixel(raw, width, 300, 15)[0]).toBeGreaterThan(40);
  });

  it('keeps to the GPano crop: its pixels where it covers the sphere, black beyond', () => {
    // The image covers longitudes -90..90 and latitudes -45..45 of a 512 x 256 sphere, at half scale.
    const half = image(128, 64, (i, j) => [2 * i, 4 * j, 7]);
    const projection: PhotoProjection = {
      kind: 'equirectangular',
      geometry: {
        fullWidth: 512,
        fullHeight: 256,
        croppedWidth: 256,
        croppedHeight: 128,
        croppedLeft: 128,
        croppedTop: 64,
      },
      centreHeading: 0,
    };
    const centre = photoPoint(projection, half, 0, 0)!;
    expect(centre.x).toBeCloseTo(64, 3);
    expect(centre.y).toBeCloseTo(32, 3);
    const corner = photoPoint(projection, half, 270, 45)!;
    expect(corner.x).toBeCloseTo(0, 3);
    expect(corner.y).toBeCloseTo(0, 3);
    const raw = renderView(half, projection, { heading: 45, pitch: -20, fov: 20 }, size);
    const [r, g, b] = pixel(raw, 101, 50, 50);
    // Longitude 45: column 96 of 128 (red 2 x 95.5), latitude -20: row 32 + 20 / 90 * 64 (green 4 x that - 2).
    expect(Math.abs(r - 191)).toBeLessThanOrEqual(1);
    expect(Math.abs(g - (4 * (32 + (20 / 90) * 64) - 2))).toBeLessThanOrEqual(1);
    expect(b).toBe(7);
    expect(pixel(renderView(half, projection, { heading: 180, pitch: 0, fov: 20 }, size), 101, 50, 50)).toEqual([
      0, 0, 0,
    ]);
    expect(pixel(renderView(half, projection, { heading: 0, pitch: 70, fov: 20 }, size), 101, 50, 50)).toEqual([
      0, 0, 0,
    ]);
  });
  it('renders in one pass the same pixels as the map of points and the bilinear blend of them', () => {
    // A textured panorama (no two neighbours alike), whole and cropped, in colour and in grey.
    const textured = image(300, 150, (i, j) => [(i * 37 + j * 11) % 256, (i * 5 + j * 53) % 256, (i * j) % 256]);
    const grey: RawImage = { data: textured.data.subarray(0, 300 * 150), width: 300, height: 150, channels: 1 };
    const cropped: PhotoProjection = {
      kind: 'equirectangular',
      geometry: {
        fullWidth: 600,
        fullHeight: 300,
        croppedWidth: 300,
        croppedHeight: 150,
        croppedLeft: 150,
        croppedTop: 40,
      },
      centreHeading: 33,
    };
    const size = { width: 97, height: 61 };
    for (const [photo, projection] of [
      [textured, panorama(212)],
      [textured, cropped],
      [grey, panorama(0)],
    ] as const) {
      for (const angles of [
        { heading: 0, pitch: 0, fov: 90 },
        { heading: 31.5, pitch: -40, fov: 120 },
        { heading: 212 + 180, pitch: 5, fov: 30 },
        { heading: 300, pitch: 85, fov: 60 },
      ]) {
        const reference = Buffer.alloc(size.width * size.height * photo.channels);
        const wraps =
          projection.kind === 'equirectangular' && projection.geometry.croppedWidth >= projection.geometry.fullWidth;
        remapBilinear(photo, viewMap(projection, photo, angles, size), reference, 0, wraps);
        const fast = renderView(photo, projection, angles, size);
        let worst = 0;
        for (let k = 0; k < fast.length; k++) worst = Math.max(worst, Math.abs(fast[k] - reference[k]));
        // The map keeps its points as 32-bit floats: a blend may round the other way.
        expect(worst).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('a view of a flat photo', () => {
  const photo = image(160, 120, (i, j) => [i, j, 50]);
  const flat: PhotoProjection = { kind: 'perspective', heading: 90, fov: 60 };

  it('is the photo itself facing its heading with its field of view and size', () => {
    const raw = renderView(photo, flat, { heading: 90, pitch: 0, fov: 60 }, { width: 160, height: 120 });
    expect(raw.equals(photo.data)).toBe(true);
  });

  it('is a crop, off centre by the focal length, and black beyond the photo', () => {
    const raw = renderView(photo, flat, { heading: 100, pitch: 5, fov: 20 }, { width: 41, height: 41 });
    const f = focalPx(160, 60);
    const [r, g] = pixel(raw, 41, 20, 20);
    expect(Math.abs(r - (80 + f * Math.tan(10 * DEG) - 0.5))).toBeLessThanOrEqual(1);
    // 5 degrees up along a ray 10 degrees to the side: f tan(5°) / cos(10°) above the centre row.
    expect(Math.abs(g - (60 - (f * Math.tan(5 * DEG)) / Math.cos(10 * DEG) - 0.5))).toBeLessThanOrEqual(1);
    const beyond = renderView(photo, flat, { heading: 130, pitch: 0, fov: 20 }, { width: 41, height: 41 });
    expect(pixel(beyond, 41, 20, 20)).toEqual([0, 0, 0]);
    expect(photoPoint(flat, photo, 270, 0)).toBeNull();
  });
});
