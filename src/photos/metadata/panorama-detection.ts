import type { PanoramaGeometry, Projection } from '../../imagery/photo-details/photo-details';
import { numberValue } from './exif-values';

// Whether a photo is a 360 image: its GPano:ProjectionType says equirectangular, or it is a 2:1 image
// from a camera that only makes 360 images (many write no GPano tags; KartaView upload-scripts#152 and
// Panoramax's list of 360 cameras). Model names as the cameras write them in EXIF Model, matched as a
// case-insensitive prefix after the make.
const KNOWN_360_CAMERAS: ReadonlyArray<readonly [make: RegExp, model: RegExp]> = [
  [/^ricoh/i, /^theta/i],
  [/^(arashi vision|insta360)/i, /^(insta360 )?(one|x[2-5]|evo|pro|titan|air)/i],
  [/^samsung/i, /^(sm-c200|sm-r210|gear 360)/i],
  [/^gopro/i, /^(fusion|gopro max|max)/i],
  [/^garmin/i, /^virb 360/i],
  [/^lg/i, /^lg-r105/i],
  [/^xiaomi/i, /^mi sphere/i],
  [/^(kandao|labpano|trisio|qoocam)/i, /./],
  [/^nctech/i, /^iris360/i],
  [/^mosaic/i, /^51/i],
];

export function isKnown360Camera(make: string | undefined, model: string | undefined): boolean {
  if (!make || !model) return false;
  // Many cameras repeat their make in Model ("RICOH THETA Z1").
  const firstWord = make.trim().split(/\s+/)[0];
  const bare = model.toLowerCase().startsWith(firstWord.toLowerCase()) ? model.slice(firstWord.length).trim() : model;
  return KNOWN_360_CAMERAS.some(([m, n]) => m.test(make) && (n.test(bare) || n.test(model)));
}

export function projectionOf(
  gpano: Record<string, unknown> | undefined,
  size: { width: number; height: number },
  camera: { make?: string; model?: string },
): { projection: Projection; panorama?: PanoramaGeometry } {
  const type = typeof gpano?.ProjectionType === 'string' ? gpano.ProjectionType.trim().toLowerCase() : undefined;
  if (type === 'equirectangular') return { projection: 'equirectangular', panorama: geometryOf(gpano!, size) };
  if (type === undefined && size.width === 2 * size.height && isKnown360Camera(camera.make, camera.model)) {
    return { projection: 'equirectangular', panorama: geometryOf({}, size) };
  }
  return { projection: 'perspective' };
}

// The GPano crop (a panorama that covers less than the full sphere), defaulting to the whole image.
function geometryOf(gpano: Record<string, unknown>, size: { width: number; height: number }): PanoramaGeometry {
  const n = (key: string, fallback: number) => {
    const v = numberValue(gpano[key]);
    return v !== undefined && v >= 0 && v <= 1_000_000 ? v : fallback;
  };
  const croppedWidth = n('CroppedAreaImageWidthPixels', size.width);
  const croppedHeight = n('CroppedAreaImageHeightPixels', size.height);
  const geometry: PanoramaGeometry = {
    fullWidth: n('FullPanoWidthPixels', croppedWidth),
    fullHeight: n('FullPanoHeightPixels', croppedHeight),
    croppedWidth,
    croppedHeight,
    croppedLeft: n('CroppedAreaLeftPixels', 0),
    croppedTop: n('CroppedAreaTopPixels', 0),
  };
  const pose = numberValue(gpano.PoseHeadingDegrees);
  if (pose !== undefined) geometry.poseHeading = pose >= 0 && pose < 360 ? pose : ((pose % 360) + 360) % 360;
  return geometry;
}
