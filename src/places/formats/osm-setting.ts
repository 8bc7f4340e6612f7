import type { PointSetting } from '../place-area-session';
import type { RawPlace } from '../place-validation';
import type { OsmContext } from './osm-context';

// Where an OpenStreetMap place lies, each part from the first source that has it (docs/places.md,
// "Where a place lies"):
// - country: addr:country, else the admin_level 2 boundary it lies in (its ISO3166-1 code), else
//   --country; region: addr:state, else the admin_level 4 boundary (its ISO3166-2 code);
// - municipality: the admin_level 8 boundary it lies in;
// - postcode: addr:postcode, else the postal_code boundary it lies in, else an address on the same
//   street nearby (OsmContext), else the nearest point with a postcode within POSTCODE_REACH_M, else
//   the postcode nearly all of its municipality has (MUNICIPALITY_POSTCODE_SHARE);
// - locality: addr:city, else the municipality, else as OsmContext finds it (same street, nearest town);
// - district: addr:suburb/addr:hamlet, else the hamlet, village or suburb area it lies in, else the
//   nearest such place node within its reach;
// - hierarchy (hamlet, village, suburb, quarter, neighbourhood, district, city): addr:hamlet... for
//   each part, else the smallest place=* area of its kinds it lies in, else the nearest such node
//   within the kind's reach in its municipality (place-hierarchy.ts);
// - an address without addr:street or addr:place: the nearest named street within STREET_REACH_M,
//   else its district stands in for the street (as addr:place does).
// Returns false for an address left with neither street nor locality (nothing to find it by).
export function settlePlace(place: RawPlace, setting: PointSetting | undefined, context: OsmContext): boolean {
  const s = setting;
  if (s) {
    place.country_code ??= s.countryCode ?? undefined;
    if (place.region === undefined && place.region_code === undefined && s.regionCode) {
      place.region = s.region ?? undefined;
      place.region_code = s.regionCode;
    }
    if (place.kind !== 'country' && place.kind !== 'region' && s.municipality !== place.name)
      place.municipality ??= s.municipality ?? undefined;
  }
  if (place.kind !== 'address' && place.kind !== 'street' && place.kind !== 'poi') return true;
  if (s) {
    place.postcode ??= s.postcode ?? undefined;
    place.locality ??= s.municipality ?? undefined;
    place.district ??= s.district ?? undefined;
    // The address's own addr:hamlet, addr:suburb... first, then the file's places.
    if (s.hierarchy) place.hierarchy = { ...s.hierarchy, ...((place.hierarchy as object | undefined) ?? {}) };
    if (place.kind === 'address' && place.street === undefined) place.street = s.street ?? s.district ?? undefined;
  }
  context.complete(place);
  place.postcode ??= s?.nearPostcode ?? s?.municipalityPostcode ?? undefined;
  return place.kind !== 'address' || place.street !== undefined || place.locality !== undefined;
}
