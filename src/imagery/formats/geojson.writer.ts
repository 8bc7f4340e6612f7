import type { ImageryRecord } from '../imagery-feature';

export type GeoJsonLayout = 'geojson' | 'geojsonseq' | 'ndjson';

// The import format's Feature for a record: reading it back yields the same record (address_origin
// tells a recovered address from the record's own; source is null for a record without one).
export function toFeature(r: ImageryRecord): object {
  return {
    type: 'Feature',
    id: r.id,
    geometry: { type: 'Point', coordinates: [r.lon, r.lat] },
    properties: {
      address: r.address,
      address_origin: r.addressOrigin,
      source: r.source,
      captured_at: r.capturedAt,
      heading: r.heading,
      interactive: r.interactive,
      image_url: r.imageUrl,
      // What the photo import read from the camera file, for a record made from a photo.
      ...(r.photo ? { photo: r.photo } : {}),
    },
  };
}

// Features as a FeatureCollection, an RFC 8142 text sequence (RS before each) or NDJSON, streamed.
export function geoJsonWriter(layout: GeoJsonLayout) {
  return async function* (records: AsyncIterable<ImageryRecord>): AsyncGenerator<string> {
    if (layout === 'geojson') yield '{"type":"FeatureCollection","features":[\n';
    let first = true;
    for await (const r of records) {
      const json = JSON.stringify(toFeature(r));
      if (layout === 'geojson') yield first ? json : `,\n${json}`;
      else yield layout === 'geojsonseq' ? `\u001e${json}\n` : `${json}\n`;
      first = false;
    }
    if (layout === 'geojson') yield first ? ']}\n' : '\n]}\n';
  };
}
