import { FACING_HALF_ANGLE_DEG } from '../../src/common/facing';

// How a result names the place it belongs to (the API's `place`, with include: ["place"]).
// No DOM here, so the wording is unit-tested without a browser (test/unit/web-place-text.spec.ts).

export interface MatchedPlace {
  id: string;
  kind: string;
  label: string;
  lat: number;
  lon: number;
  distance_m: number;
  bearing_offset_deg?: number;
}

/** The sentence around the place's label: `${before}${label}${after}`. */
export interface PlaceText {
  before: string;
  label: string;
  after: string;
}

// Within FACING_HALF_ANGLE_DEG of the bearing to the address the camera faces it (the service's one
// rule, which also ranks such a record as showing the address); past 90° the address is behind it.
// Between the two the address is at the edge of the image or outside it.
export const SIDEWAYS_MAX_DEG = 90;

export function formatMetres(m: number): string {
  if (m < 1000) return `${Math.round(m)} m`;
  return `${(m / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} km`;
}

// "12 m from Herrengasse 35, 9490 Vaduz, facing it (8°)"; "In Vaduz, Liechtenstein"; "On Bergstrasse, Vaduz".
export function placeText(place: MatchedPlace, interactive: boolean): PlaceText {
  const { label } = place;
  switch (place.kind) {
    case 'address':
      if (place.distance_m < 1) return { before: 'At ', label, after: '' };
      return {
        before: `${formatMetres(place.distance_m)} from `,
        label,
        after: view(place.bearing_offset_deg, interactive),
      };
    case 'poi':
      return { before: `${formatMetres(place.distance_m)} from `, label, after: '' };
    case 'street':
      return { before: 'On ', label, after: '' };
    default:
      // locality, postcode, region, country: an area the record lies in (or is nearest to).
      return { before: 'In ', label, after: '' };
  }
}

function view(offset: number | undefined, interactive: boolean): string {
  // A panorama shows every direction, whichever way it was recorded.
  if (interactive) return ', a 360° view';
  if (offset === undefined) return '';
  const deg = Math.round(offset);
  if (offset <= FACING_HALF_ANGLE_DEG) return `, facing it (${deg}°)`;
  if (offset <= SIDEWAYS_MAX_DEG) return `, turned ${deg}° from it`;
  return `, facing away (${deg}°)`;
}
