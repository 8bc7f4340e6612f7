import sharp from 'sharp';
import {
  bandOf,
  bandProjection,
  DecodedBand,
  decodeBand,
  latitudesOf,
  rowsOf,
} from '../../src/photos/serving/panorama-band';
import { anglesOf, PhotoProjection, RawImage, ViewAngles, viewRay } from '../../src/photos/serving/view-projection';
import { renderView } from '../../src/photos/serving/view-render';

// A panorama's view drawn from the band of rows it needs (panorama-band.ts): the latitudes found on the
// view's border (or a pole within it) against every pixel's own, and the view drawn from the band
// against the view drawn from the whole panorama, pixel for pixel, whole spheres and a GPano crop.

type Panorama = Extract<PhotoProjection, { kind: 'equirectangular' }>;

const VIEWS: Array<{ angles: ViewAngles; size: { width: number; height: number } }> = [
  { angles: { heading: 0, pitch: 0, fov: 90 }, size: { width: 320, height: 240 } },
  { angles: { heading: 359, pitch: 0, fov: 90 }, size: { width: 320, height: 240 } },
  { angles: { heading: 120, pitch: 30, fov: 60 }, size: { width: 200, height: 300 } },
  { angles: { heading: 200, pitch: -45, fov: 100 }, size: { width: 256, height: 128 } },
  // The zenith and the nadir within the view.
  { angles: { heading: 80, pitch: 70, fov: 120 }, size: { width: 240, height: 240 } },
  { angles: { heading: 10, pitch: -85, fov: 40 }, size: { width: 160, height: 120 } },
  { angles: { heading: 300, pitch: 10, fov: 20 }, size: { width: 400, height: 100 } },
];

/** A panorama whose every pixel differs from its neighbours. */
function noise(width: number, height: number): RawImage {
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = seed >> 16;
  }
  return { data, width, height, channels: 3 };
}

/** The rows of `span` cut from a decoded image, as decodeBand cuts them from a stored one. */
function cut(image: RawImage, span: { from: number; to: number }): DecodedBand {
  const { top, rows } = rowsOf(span, image.height);
  const stride = image.width * image.channels;
  const data = Buffer.from(image.data.subarray(top * stride, (top + rows) * stride));
  return { ...image, data, height: rows, top, wholeHeight: image.height };
}

function maxDifference(a: Buffer, b: Buffer): number {
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i] - b[i]));
  return most;
}

describe('the band of a panorama a view needs', () => {
  it("finds the view's highest and lowest latitudes: every pixel's lies within them", () => {
    for (const { angles, size } of VIEWS) {
      const { top, bottom } = latitudesOf(angles, size);
      let highest = -90;
      let lowest = 90;
      for (let y = 0.5; y < size.height; y++)
        for (let x = 0.5; x < size.width; x++) {
          const { pitch } = anglesOf(viewRay(angles, size, x, y));
          highest = Math.max(highest, pitch);
          lowest = Math.min(lowest, pitch);
        }
      expect({ angles, top: top >= highest - 1e-9, bottom: bottom <= lowest + 1e-9 }).toEqual({
        angles,
        top: true,
        bottom: true,
      });
      // Not wider than the border's own latitudes, a pixel's half further at most, but at a pole.
      if (top < 90) expect(top - highest).toBeLessThan(0.5);
      if (bottom > -90) expect(lowest - bottom).toBeLessThan(0.5);
    }
  });

  it('draws the same view from the band as from the whole panorama', () => {
    const whole = noise(720, 360);
    const sphere: Panorama = {
      kind: 'equirectangular',
      centreHeading: 37,
      geometry: {
        fullWidth: 720,
        fullHeight: 360,
        croppedWidth: 720,
        croppedHeight: 360,
        croppedLeft: 0,
        croppedTop: 0,
      },
    };
    // A phone's photo sphere: part of a sphere twice as fine, off centre.
    const cropped: Panorama = {
      kind: 'equirectangular',
      centreHeading: 200,
      geometry: {
        fullWidth: 1440,
        fullHeight: 720,
        croppedWidth: 1440,
        croppedHeight: 360,
        croppedLeft: 0,
        croppedTop: 150,
      },
    };
    for (const projection of [sphere, cropped])
      for (const { angles, size } of VIEWS) {
        const span = bandOf(projection, angles, size);
        const band = cut(whole, span);
        const fromWhole = renderView(whole, projection, angles, size);
        const fromBand = renderView(band, bandProjection(projection, band), angles, size);
        expect({ angles, crop: projection.geometry.croppedTop, most: maxDifference(fromWhole, fromBand) }).toEqual({
          angles,
          crop: projection.geometry.croppedTop,
          most: expect.any(Number),
        });
        expect(maxDifference(fromWhole, fromBand)).toBeLessThanOrEqual(1);
        // A view at the horizon needs under half the rows.
        if (angles.pitch === 0 && angles.fov === 90 && projection === sphere) expect(band.height).toBeLessThan(180);
      }
  });

  it('decodes only the rows of the band from a stored JPEG', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 10, g: 20, b: 30 } } })
      .jpeg()
      .toBuffer();
    const band = await decodeBand(jpeg, { from: 0.25, to: 0.5 });
    expect({ top: band.top, height: band.height, width: band.width, whole: band.wholeHeight }).toEqual({
      top: 49,
      height: 52,
      width: 400,
      whole: 200,
    });
    expect(band.data.length).toBe(400 * 52 * 3);
  });
});
