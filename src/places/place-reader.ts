import { formatFromPath, openInput, peek } from '../import-formats/import-input';
import { GeoJsonLayout, readGeoJsonPlaces, sniffGeoJsonLayout } from './formats/geojson-places.reader';
import { readOpenAddresses } from './formats/openaddresses-csv.reader';
import { OsmAreaLookup, readOsm } from './formats/osm-pbf.reader';
import type { PlaceItem } from './place-item';
import type { MapFeatureSink } from '../map-data/map-feature';

export const PLACE_FORMATS = ['osm', 'openaddresses', 'geojson'] as const;
export type PlaceFormat = (typeof PLACE_FORMATS)[number];

export function isPlaceFormat(value: string): value is PlaceFormat {
  return (PLACE_FORMATS as readonly string[]).includes(value);
}

// The format a file name says: .osm.pbf/.pbf/.osm (OpenStreetMap), .csv (OpenAddresses), the
// imagery importer's GeoJSON names (.geojson, .json, .ndjson, .geojsonl, ...); a trailing .gz is
// looked through for CSV and GeoJSON.
export function placeFormatFromPath(path: string): PlaceFormat | undefined {
  if (/\.(osm\.pbf|pbf|osm|osm\.bz2|osc)$/i.test(path)) return 'osm';
  const format = formatFromPath(path);
  if (format === 'csv') return 'openaddresses';
  return format === undefined ? undefined : 'geojson';
}

export interface PlaceInput {
  items: AsyncGenerator<PlaceItem>;
  /** What positions are, in messages and reports. */
  positionLabel: 'line' | 'feature' | 'object';
  /** File size on disk; unknown for standard input and OpenStreetMap (osmium reads the file). */
  totalBytes?: number;
  bytesRead(): number;
  /** Releases the input (standard input, osmium) when the import stopped early. */
  close(): void;
}

export interface PlaceInputOptions {
  /** ISO 3166-1 alpha-2 of the whole file (OpenAddresses makes REGION a region code from it). */
  countryCode?: string | null;
  /** OpenStreetMap: where the file's boundaries, places and streets are kept to settle each place in. */
  osmAreas?: OsmAreaLookup;
  /** OpenStreetMap: where the map's features go (read in the areas' pass, so only with osmAreas). */
  osmMap?: MapFeatureSink;
}

// Opens a file ('-': standard input, except for OpenStreetMap) as a stream of place items.
export async function openPlaceInput(
  path: string,
  format: PlaceFormat,
  options: PlaceInputOptions = {},
): Promise<PlaceInput> {
  if (format === 'osm') {
    const items = readOsm(path, options.osmAreas, options.osmMap);
    return {
      items,
      positionLabel: 'object',
      bytesRead: () => 0,
      close: () => void items.return(undefined).catch(() => undefined),
    };
  }
  const input = await openInput(path);
  const base = { totalBytes: input.totalBytes, bytesRead: input.bytesRead, close: () => input.stream.destroy() };
  if (format === 'openaddresses')
    return { ...base, items: readOpenAddresses(input.stream, options), positionLabel: 'line' };
  const named = formatFromPath(path);
  const layout: GeoJsonLayout =
    named === 'geojson'
      ? 'collection'
      : named === 'geojsonseq' || named === 'ndjson'
        ? 'seq'
        : sniffGeoJsonLayout(await peek(input.stream));
  return {
    ...base,
    items: readGeoJsonPlaces(input.stream, layout),
    positionLabel: layout === 'collection' ? 'feature' : 'line',
  };
}
