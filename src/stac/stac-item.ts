import type { AppConfig } from '../config/app-config';
import { imagePath } from '../photos/serving/image-urls';
import { recordImageUrl } from '../search/answer/capture-format';
import { collectionOfSource } from './stac-collection-id';
import { GEOJSON_TYPE, JSON_TYPE, StacUrls } from './stac-links';
import type { StacItemRow } from './stac.repository';

// One imagery record as a STAC Item (STAC 1.0.0 with the view extension): a GeoJSON Point, the capture's
// calendar day as datetime (its start, in UTC) and as start_datetime/end_datetime (the whole day, for
// the capture has no time), the heading as view:azimuth, the address as its title, the image as its
// `visual` asset.
export const STAC_VERSION = '1.0.0';
export const VIEW_EXTENSION = 'https://stac-extensions.github.io/view/v1.0.0/schema.json';

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};

/** A photo's neighbours in its sequence, by capture order (null at its ends). */
export interface SequenceNeighbours {
  previous: string | null;
  next: string | null;
}

export function stacItem(
  row: StacItemRow,
  urls: StacUrls,
  config: Pick<AppConfig, 'imageBaseUrl' | 'imageUrlSecret'>,
  neighbours?: SequenceNeighbours,
): Record<string, unknown> {
  const collection = collectionOfSource(row.source);
  // A photo links to the photos taken before and after it (rel prev and next, as Panoramax's items do),
  // which its import put in the same collection.
  const walk = (rel: 'prev' | 'next', id: string | null | undefined) =>
    id
      ? [
          {
            rel,
            href: urls.item(collection, id),
            type: GEOJSON_TYPE,
            title: `The photo taken ${rel === 'prev' ? 'before' : 'after'} it`,
          },
        ]
      : [];
  return {
    type: 'Feature',
    stac_version: STAC_VERSION,
    stac_extensions: [VIEW_EXTENSION],
    id: row.id,
    collection,
    geometry: { type: 'Point', coordinates: [row.lon, row.lat] },
    bbox: [row.lon, row.lat, row.lon, row.lat],
    properties: {
      title: row.address,
      datetime: `${row.captured_at}T00:00:00Z`,
      start_datetime: `${row.captured_at}T00:00:00Z`,
      end_datetime: `${row.captured_at}T23:59:59Z`,
      ...(row.heading === null ? {} : { 'view:azimuth': azimuth(row.heading) }),
      interactive: row.interactive,
    },
    links: [
      { rel: 'self', href: urls.item(collection, row.id), type: GEOJSON_TYPE },
      { rel: 'parent', href: urls.collection(collection), type: JSON_TYPE },
      { rel: 'collection', href: urls.collection(collection), type: JSON_TYPE },
      urls.rootLink(),
      ...walk('prev', neighbours?.previous),
      ...walk('next', neighbours?.next),
    ],
    assets: assetsOf(row, config),
  };
}

// A photo's record (its image the service's own sd.jpg) has every stored size; any other record its image.
function assetsOf(row: StacItemRow, config: Pick<AppConfig, 'imageBaseUrl' | 'imageUrlSecret'>) {
  const url = (path: string) => recordImageUrl(path, row.id, config);
  if (row.image_url === imagePath(row.id, 'sd')) {
    const jpeg = (path: string, title: string, roles: string[]) => ({
      href: url(path),
      type: 'image/jpeg',
      title,
      roles,
    });
    return {
      thumbnail: jpeg(imagePath(row.id, 'thumb'), 'Thumbnail (256 px)', ['thumbnail']),
      visual: jpeg(imagePath(row.id, 'sd'), 'Image (1024 px)', ['visual']),
      hd: jpeg(imagePath(row.id, 'hd'), 'Image (2048 px)', ['visual']),
      data: jpeg(imagePath(row.id, 'original'), 'The camera file', ['data']),
    };
  }
  const href = url(row.image_url);
  const type = IMAGE_TYPES[/\.([a-z0-9]{2,5})(?:[?#].*)?$/i.exec(href)?.[1].toLowerCase() ?? ''];
  return { visual: { href, ...(type ? { type } : {}), title: 'Image', roles: ['visual'] } };
}

// Degrees clockwise from north, 0 <= azimuth < 360 (the view extension's range).
function azimuth(heading: number): number {
  return ((heading % 360) + 360) % 360;
}
