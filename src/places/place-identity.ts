import { createHash } from 'node:crypto';
import type { PlaceHierarchy } from './place-hierarchy';
import type { PlaceKind } from './place-record';

// What a place the record does not name or identify is called and identified by (place-validation.ts).

// What an unnamed place is called: an address by its house number and street ("Herrengasse 35" is
// the label's job; the name keeps the order of the record), a street or postcode by itself.
export function derivedName(
  kind: PlaceKind,
  housenumber: string | null,
  street: string | null,
  postcode: string | null,
): string | null {
  if (kind === 'address') return [street, housenumber].filter((p) => p !== null).join(' ') || null;
  if (kind === 'street') return street;
  if (kind === 'postcode') return postcode;
  return null;
}

// A source id for a record without one: the same content always gets the same id.
export function contentId(
  parts: { municipality: string | null; district: string | null; hierarchy?: PlaceHierarchy | null },
  lon: number,
  lat: number,
): string {
  // Parts added later count only when present, so the places of existing files keep their ids.
  const { municipality, district, hierarchy, ...rest } = parts;
  const content = {
    ...rest,
    ...(municipality !== null && { municipality }),
    ...(district !== null && { district }),
    ...(hierarchy && { hierarchy }),
  };
  return `sha1:${createHash('sha1')
    .update(JSON.stringify([content, lon, lat]))
    .digest('hex')}`;
}
