import { bearingDeg, distanceM, LatLon } from '../metadata/geodesy';
import { imagePath } from './image-urls';
import { normalHeading, VIEW_LIMITS } from './view-parameters';

// "The view of the place, by default": a 360 photo's record found for a place (an address, a POI, a
// coordinate) gets as its image the view from the camera towards that place, so a client that only
// shows `image` shows the place. Only the service's own 360 images (their image is /images/{id}/sd.jpg),
// and only when the camera is not at the place itself; the equirectangular image stays at
// /images/{id}/sd.jpg, hd.jpg and original.jpg. What lies between the camera and the place is not known:
// the view faces the place whether or not a building or a tree hides it.

/** The field of view of the view of the place, degrees: a view's default. */
export const PLACE_VIEW_FOV = VIEW_LIMITS.fov.default;
/** Closer than this the bearing from the camera to the place says nothing: the image stays as it is. */
const AT_THE_PLACE_M = 2;

export interface RecordImage {
  id: string;
  interactive: boolean;
  /** The record's image URL as stored (relative for the service's own images). */
  imageUrl: string;
  lat: number;
  lon: number;
}

/** The relative URL of the record's view towards the place, or null when its image stays as it is. */
export function placeViewPath(record: RecordImage, place: LatLon): string | null {
  if (!record.interactive || record.imageUrl !== imagePath(record.id, 'sd')) return null;
  if (distanceM(record, place) < AT_THE_PLACE_M) return null;
  const heading = normalHeading(bearingDeg(record, place));
  return `images/${record.id}/view.jpg?heading=${heading}&fov=${PLACE_VIEW_FOV}`;
}
