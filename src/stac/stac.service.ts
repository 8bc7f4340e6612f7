import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { pagedRows } from './stac-page-links';
import { collectionDocument, collectionsDocument, CONFORMANCE, landingPage, queryablesDocument } from './stac-catalog';
import { collectionOfSource } from './stac-collection-id';
import { applyFields } from './stac-fields';
import { StacFreeText } from './stac-free-text';
import { SequenceNeighbours, stacItem } from './stac-item';
import { imagePath } from '../photos/serving/image-urls';
import { PhotosRepository } from '../photos/photos.repository';
import { GEOJSON_TYPE, StacLink, StacUrls, withParameters } from './stac-links';
import { ITEMS_PARAMETERS, parseSearch, SEARCH_PARAMETERS, SearchOrigin, StacSearch } from './stac-search-parameters';
import { invalidParameter, StacException, StacExceptionCode } from './stac.exception';
import { CollectionRow, StacItemRow, StacRepository } from './stac.repository';
import { MATCH_COUNT_CAP } from './stac.sql';

// The collections' summary takes one pass over the catalogue: it is kept until an import changes the
// imagery (the map data version) and at most this long, for changes made outside an import.
const COLLECTIONS_MAX_AGE_MS = 60_000;

export interface SearchRequest {
  /** Query parameters (GET) or the body (POST), as sent. */
  raw: Record<string, unknown>;
  origin: SearchOrigin;
}

// The STAC API's rules: which documents exist, what a search means, how its pages link to each other.
@Injectable()
export class StacService {
  private collectionsCache?: { version: string; at: number; rows: CollectionRow[] };

  constructor(
    private readonly repository: StacRepository,
    private readonly freeText: StacFreeText,
    private readonly photos: PhotosRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async landing(urls: StacUrls): Promise<object> {
    return landingPage(urls, await this.collectionRows());
  }

  conformance(): object {
    return { conformsTo: CONFORMANCE };
  }

  async queryables(urls: StacUrls, collectionId?: string): Promise<object> {
    if (collectionId !== undefined) await this.collectionRow(collectionId);
    return queryablesDocument(urls);
  }

  async collections(urls: StacUrls): Promise<object> {
    return collectionsDocument(urls, await this.collectionRows());
  }

  async collection(urls: StacUrls, id: string): Promise<object> {
    return collectionDocument(urls, await this.collectionRow(id));
  }

  async item(urls: StacUrls, collectionId: string, itemId: string): Promise<object> {
    const row = /^[0-9a-f-]{36}$/i.test(itemId) ? await this.repository.item(itemId.toLowerCase()) : undefined;
    if (!row || collectionOfSource(row.source) !== collectionId) {
      await this.collectionRow(collectionId);
      throw new StacException(StacExceptionCode.ITEM_NOT_FOUND, 'itemId', `No item ${itemId} in ${collectionId}`);
    }
    return stacItem(row, urls, this.config, (await this.neighbours([row])).get(row.id));
  }

  // GET /stac/collections/{id}/items: the collection's items, searched by bbox and datetime (OGC API Features).
  async items(urls: StacUrls, collectionId: string, request: SearchRequest): Promise<object> {
    await this.collectionRow(collectionId);
    const search = { ...parseSearch(request.raw, request.origin, ITEMS_PARAMETERS), collections: [collectionId] };
    const self = urls.items(collectionId);
    const links: StacLink[] = [
      { rel: 'parent', href: urls.collection(collectionId), type: 'application/json' },
      { rel: 'collection', href: urls.collection(collectionId), type: 'application/json' },
    ];
    return this.page(urls, search, request, self, links);
  }

  // GET and POST /stac/search.
  async search(urls: StacUrls, request: SearchRequest): Promise<object> {
    const search = parseSearch(request.raw, request.origin, SEARCH_PARAMETERS);
    return this.page(urls, search, request, urls.search, []);
  }

  private async page(
    urls: StacUrls,
    search: StacSearch,
    request: SearchRequest,
    self: string,
    links: StacLink[],
  ): Promise<object> {
    if (search.intersects && search.intersects.type !== 'Point' && search.intersects.type !== 'MultiPoint') {
      const problem = await this.repository.geometryProblem(search);
      if (problem) throw invalidParameter('intersects', `must be a valid geometry: ${problem}`);
    }
    if (search.q !== undefined) {
      const matches = await this.freeText.matches(search.q);
      search = { ...search, ids: search.ids ? search.ids.filter((id) => matches.includes(id)) : matches };
    }
    const found = search.ids?.length === 0 ? { rows: [], matched: 0 } : await this.repository.searchPage(search);
    const query = request.origin === 'query' ? (request.raw as Record<string, string>) : {};
    const paged = pagedRows(found.rows, search, { origin: request.origin, query }, self);
    const rows = paged.rows;
    const neighbours = await this.neighbours(rows);
    const items = rows.map((row) => stacItem(row, urls, this.config, neighbours.get(row.id)));
    const fields = search.fields;
    const features = fields ? items.map((item) => applyFields(item, fields)) : items;
    const pageLinks: StacLink[] = [
      { rel: 'self', href: withParameters(self, query, {}), type: GEOJSON_TYPE },
      urls.rootLink(),
      ...links,
      ...paged.links,
    ];
    return {
      type: 'FeatureCollection',
      features,
      links: pageLinks,
      numberReturned: features.length,
      // Exact or absent: counted up to MATCH_COUNT_CAP matches, never estimated.
      ...(found.matched <= MATCH_COUNT_CAP ? { numberMatched: found.matched } : {}),
    };
  }

  // The sequence neighbours of the rows that are photos (their image the service's own), in one read.
  private async neighbours(rows: readonly StacItemRow[]): Promise<Map<string, SequenceNeighbours>> {
    const photoIds = rows.filter((r) => r.image_url === imagePath(r.id, 'sd')).map((r) => r.id);
    if (photoIds.length === 0) return new Map();
    return new Map((await this.photos.findSequencePlaces(photoIds)).map((p) => [p.id, p]));
  }

  private async collectionRow(id: string): Promise<CollectionRow> {
    const row = (await this.collectionRows()).find((c) => c.id === id);
    if (!row) throw new StacException(StacExceptionCode.COLLECTION_NOT_FOUND, 'collectionId', `No collection ${id}`);
    return row;
  }

  private async collectionRows(): Promise<CollectionRow[]> {
    const version = await this.repository.dataVersion();
    const cached = this.collectionsCache;
    if (cached && cached.version === version && Date.now() - cached.at < COLLECTIONS_MAX_AGE_MS) return cached.rows;
    const rows = await this.repository.collections();
    this.collectionsCache = { version, at: Date.now(), rows };
    return rows;
  }
}
