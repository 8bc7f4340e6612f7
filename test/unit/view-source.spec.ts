import { RequestException } from '../../src/common/app-exception';
import type { ViewablePhoto } from '../../src/photos/photos.repository';
import { parseViewQuery } from '../../src/photos/serving/view-parameters';
import { photoResolution, viewResolution } from '../../src/photos/serving/view-projection';
import {
  DEFAULT_FLAT_FOV,
  flatFov,
  MIN_SOURCE_RESOLUTION,
  projectionOf,
  sourceFor,
  uprightSize,
} from '../../src/photos/serving/view-source';

// What a view is rendered from and how its query is read: the smallest stored image with the pixels
// the view needs, a flat photo's field of view from its focal length, the normal form of parameters.

const panorama = (width: number, height: number, extra: Partial<ViewablePhoto> = {}): ViewablePhoto => ({
  contentHash: 'a'.repeat(64),
  projection: 'equirectangular',
  panorama: null,
  width,
  height,
  orientation: 1,
  headingOrigin: 'exif',
  heading: 90,
  ...extra,
});

describe('the source of a view', () => {
  it('is the smallest derivative fine enough, else the original', () => {
    const photo = panorama(5760, 2880);
    const p = projectionOf(photo, 0);
    const at = (width: number, fov: number) =>
      sourceFor(photo, p, { heading: 0, pitch: 0, fov }, { width, height: 100 });
    expect(at(200, 90).variant).toBe('sd');
    expect(at(640, 90).variant).toBe('hd');
    expect(at(1024, 90)).toEqual({ variant: 'original', width: 5760 });
    expect(at(300, 20).variant).toBe('original');
    expect(at(40, 120).variant).toBe('thumb');
    // Whatever it picks has at least MIN_SOURCE_RESOLUTION of the view's pixels per radian.
    for (const [w, fov] of [
      [200, 90],
      [640, 90],
      [40, 120],
      [2048, 10],
    ]) {
      const angles = { heading: 0, pitch: 0, fov };
      const s = sourceFor(photo, p, angles, { width: w, height: 100 });
      if (s.variant !== 'original') {
        expect(photoResolution(p, s.width)).toBeGreaterThanOrEqual(
          viewResolution(angles, { width: w, height: 100 }) * MIN_SOURCE_RESOLUTION,
        );
      }
    }
  });

  it('is the original when no derivative is smaller than it', () => {
    const photo = panorama(1440, 720);
    expect(
      sourceFor(photo, projectionOf(photo, 0), { heading: 0, pitch: 0, fov: 90 }, { width: 640, height: 480 }),
    ).toEqual({
      variant: 'original',
      width: 1440,
    });
  });

  it("faces a panorama's centre column to its pose heading, else to its record's heading", () => {
    const geometry = {
      fullWidth: 800,
      fullHeight: 400,
      croppedWidth: 800,
      croppedHeight: 200,
      croppedLeft: 0,
      croppedTop: 100,
    };
    expect(projectionOf(panorama(800, 200, { panorama: { ...geometry, poseHeading: 10 } }), 0)).toMatchObject({
      centreHeading: 10,
      geometry: { croppedTop: 100 },
    });
    expect(projectionOf(panorama(800, 200, { panorama: geometry }), 0)).toMatchObject({ centreHeading: 90 });
    expect(projectionOf(panorama(800, 400), 0)).toMatchObject({ geometry: { fullWidth: 800, croppedHeight: 400 } });
  });

  it('gives a flat photo the field of view of its 35 mm focal length, upright, else the default', () => {
    expect(flatFov({ width: 4000, height: 3000 }, 28)).toBeCloseTo(63.44, 2);
    // 24 mm on 3:2 is the classic 73.7 x 53.1 degrees.
    expect(flatFov({ width: 3600, height: 2400 }, 24)).toBeCloseTo(73.74, 2);
    expect(flatFov({ width: 2400, height: 3600 }, 24)).toBeCloseTo(53.13, 2);
    expect(flatFov({ width: 4000, height: 3000 }, undefined)).toBe(DEFAULT_FLAT_FOV);
    expect(flatFov({ width: 4000, height: 3000 }, 0)).toBe(DEFAULT_FLAT_FOV);
    expect(uprightSize({ width: 4000, height: 3000, orientation: 6 })).toEqual({ width: 3000, height: 4000 });
    expect(uprightSize({ width: 4000, height: 3000, orientation: null })).toEqual({ width: 4000, height: 3000 });
  });
});

describe('the query of a view', () => {
  const field = (query: Record<string, unknown>) => {
    try {
      parseViewQuery(query);
    } catch (error) {
      return (error as RequestException).details?.[0].field;
    }
    return undefined;
  };

  it('has defaults, and one normal form for one view', () => {
    expect(parseViewQuery({})).toEqual({ pitch: 0, fov: 90, width: 640, height: 480 });
    expect(parseViewQuery({ heading: '360', pitch: '-0.04', fov: '59.96', width: '320', height: '16' })).toEqual({
      heading: 0,
      pitch: 0,
      fov: 60,
      width: 320,
      height: 16,
    });
    expect(parseViewQuery({ heading: '12.34' }).heading).toBe(12.3);
    expect(parseViewQuery({ pitch: '+90' }).pitch).toBe(90);
  });

  it('names the parameter it refuses', () => {
    expect(field({ heading: '-1' })).toBe('heading');
    expect(field({ heading: 'NaN' })).toBe('heading');
    expect(field({ heading: '' })).toBe('heading');
    expect(field({ heading: '0x10' })).toBe('heading');
    expect(field({ pitch: '90.1' })).toBe('pitch');
    expect(field({ fov: '9.9' })).toBe('fov');
    expect(field({ width: '2048.0' })).toBe('width');
    expect(field({ height: ['100', '200'] })).toBe('height');
    expect(field({ size: '100' })).toBe('size');
    expect(field({ heading: '0', fov: '10', width: '2048', height: '2048', pitch: '-90' })).toBeUndefined();
  });
});
