import type { Rejection } from '../import-formats/rejection';
import type { RawPlace } from './place-validation';

// What a place reader yields for each thing it reads: a place to validate, a rejection, or (for
// OpenStreetMap objects that are no place: a bench, an unnamed road) a skip, which is only counted.
export interface PlaceItem {
  /** 1-based line (CSV, NDJSON), 0-based feature index (FeatureCollection), or OSM object id ("n123", "w456"). */
  position: number | string;
  place?: RawPlace;
  /** What the input calls a RawPlace field, where it differs (LON for lon), so rejections name the input's field. */
  fieldNames?: Readonly<Partial<Record<string, string>>>;
  rejection?: Rejection;
  skipped?: true;
}
