// How close the map comes when it frames a search's results, by the finest kind of place they were
// found through: an address or a POI to the doorstep, a street along it, a postcode or a town with
// their streets around, a region or a country as a whole. No DOM here (test/unit/web-map-fit.spec.ts).

/** The closest zoom a frame of results comes to, by the kind of the place they belong to. */
export const FIT_MAX_ZOOM = {
  address: 18,
  poi: 18,
  street: 17,
  postcode: 15,
  locality: 14,
  region: 9,
  country: 6,
} as const;
/** Results linked to no place (a search by coordinates, imagery without addresses). */
export const FIT_MAX_ZOOM_WITHOUT_PLACE = 16;

type FitKind = keyof typeof FIT_MAX_ZOOM;
const isFitKind = (kind: string): kind is FitKind => Object.hasOwn(FIT_MAX_ZOOM, kind);

/** The closest zoom a frame of these results may come to: that of the finest kind among their places. */
export function fitMaxZoom(records: { place?: { kind: string } }[]): number {
  const zooms = records.flatMap((r) => (r.place && isFitKind(r.place.kind) ? [FIT_MAX_ZOOM[r.place.kind]] : []));
  return zooms.length ? Math.max(...zooms) : FIT_MAX_ZOOM_WITHOUT_PLACE;
}
