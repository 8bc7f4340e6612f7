import { JSON_TYPE, GEOJSON_TYPE, StacUrls } from './stac-links';
import { STAC_VERSION } from './stac-item';
import type { CollectionRow } from './stac.repository';

// The landing page, the conformance declaration and the collections: what a STAC or OGC API Features
// client reads before any item.

// Only the classes this API implements (docs/stac.md lists what each means here).
export const CONFORMANCE = [
  'https://api.stacspec.org/v1.0.0/core',
  'https://api.stacspec.org/v1.0.0/collections',
  'https://api.stacspec.org/v1.0.0/ogcapi-features',
  'https://api.stacspec.org/v1.0.0/ogcapi-features#sort',
  'https://api.stacspec.org/v1.0.0/ogcapi-features#fields',
  'https://api.stacspec.org/v1.0.0/item-search',
  'https://api.stacspec.org/v1.0.0/item-search#sort',
  'https://api.stacspec.org/v1.0.0/item-search#fields',
  'https://api.stacspec.org/v1.0.0-rc.1/item-search#free-text',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'https://api.stacspec.org/v1.0.0-rc.2/item-search#filter',
  'https://api.stacspec.org/v1.0.0-rc.2/ogcapi-features#filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-json',
];

export const QUERYABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/queryables';
const SCHEMA_TYPE = 'application/schema+json';
// The media type of an OpenAPI 3.0 JSON document, as the STAC API specification writes it.
const OPENAPI_TYPE = 'application/vnd.oai.openapi+json;version=3.0';

export const CATALOG_ID = 'location-imagery-search';

export function landingPage(urls: StacUrls, collections: CollectionRow[]): Record<string, unknown> {
  return {
    type: 'Catalog',
    stac_version: STAC_VERSION,
    id: CATALOG_ID,
    title: 'Location Imagery Search',
    description: 'Street-level imagery: one collection per source, one item per image.',
    conformsTo: CONFORMANCE,
    links: [
      { rel: 'self', href: urls.root, type: JSON_TYPE },
      urls.rootLink(),
      { rel: 'conformance', href: urls.conformance, type: JSON_TYPE, title: 'Conformance classes' },
      { rel: 'service-desc', href: urls.serviceDesc, type: OPENAPI_TYPE, title: 'OpenAPI document' },
      { rel: 'service-doc', href: urls.serviceDoc, type: 'text/html', title: 'API documentation' },
      { rel: 'data', href: urls.collections, type: JSON_TYPE, title: 'Collections' },
      { rel: QUERYABLES_REL, href: urls.queryables, type: SCHEMA_TYPE, title: 'Queryables' },
      { rel: 'search', href: urls.search, type: GEOJSON_TYPE, method: 'GET', title: 'Item search' },
      { rel: 'search', href: urls.search, type: GEOJSON_TYPE, method: 'POST', title: 'Item search' },
      ...collections.map((c) => ({ rel: 'child', href: urls.collection(c.id), type: JSON_TYPE, title: c.id })),
    ],
  };
}

export function collectionDocument(urls: StacUrls, row: CollectionRow): Record<string, unknown> {
  return {
    type: 'Collection',
    stac_version: STAC_VERSION,
    stac_extensions: [],
    id: row.id,
    title: row.id,
    description: `Street-level imagery of the source \`${row.id}\`.`,
    license: 'various',
    keywords: ['street-level imagery'],
    extent: {
      spatial: { bbox: [[row.west, row.south, row.east, row.north]] },
      temporal: { interval: [[`${row.first_capture}T00:00:00Z`, `${row.last_capture}T23:59:59Z`]] },
    },
    // The number of items, exact (not part of STAC: docs/stac.md).
    count: row.count,
    links: [
      { rel: 'self', href: urls.collection(row.id), type: JSON_TYPE },
      { rel: 'parent', href: urls.root, type: JSON_TYPE },
      urls.rootLink(),
      { rel: 'items', href: urls.items(row.id), type: GEOJSON_TYPE, title: 'Items' },
      { rel: QUERYABLES_REL, href: urls.queryables, type: SCHEMA_TYPE, title: 'Queryables' },
    ],
  };
}

export function collectionsDocument(urls: StacUrls, rows: CollectionRow[]): Record<string, unknown> {
  return {
    collections: rows.map((row) => collectionDocument(urls, row)),
    links: [
      { rel: 'self', href: urls.collections, type: JSON_TYPE },
      { rel: 'parent', href: urls.root, type: JSON_TYPE },
      urls.rootLink(),
    ],
  };
}

// What `filter` can name (stac-filter.ts), the same for every collection.
export function queryablesDocument(urls: StacUrls): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $id: urls.queryables,
    type: 'object',
    title: 'Queryables',
    properties: {
      datetime: {
        description: "The capture day's start, 00:00 UTC",
        type: 'string',
        format: 'date-time',
      },
      'view:azimuth': {
        description: 'Heading, degrees clockwise from north',
        type: 'number',
        minimum: 0,
        exclusiveMaximum: 360,
      },
      interactive: { description: 'An interactive panorama', type: 'boolean' },
      collection: { description: 'The collection: the source (also queryable as `source`)', type: 'string' },
    },
    additionalProperties: false,
  };
}
