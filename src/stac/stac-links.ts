import { DOCS_PATH, OPENAPI_JSON_PATH } from '../openapi/openapi';

// Absolute URLs of the STAC API's documents: from PUBLIC_URL, or, when it is unset, from the origin
// the request came to (its protocol as TRUST_PROXY lets Express read it, its Host header).
export interface StacLink {
  rel: string;
  href: string;
  type?: string;
  title?: string;
  method?: 'GET' | 'POST';
  body?: Record<string, unknown>;
  merge?: boolean;
}

export const JSON_TYPE = 'application/json';
export const GEOJSON_TYPE = 'application/geo+json';
export const STAC_PATH = '/stac';

export function stacBaseUrl(publicUrl: string | undefined, protocol: string, host: string | undefined): string {
  const origin = publicUrl ?? `${protocol}://${host ?? 'localhost'}`;
  return `${origin.replace(/\/+$/, '')}${STAC_PATH}`;
}

export class StacUrls {
  constructor(readonly base: string) {}

  get root(): string {
    return this.base;
  }
  /** The service's OpenAPI document (rel service-desc) and Swagger UI (rel service-doc): the whole API's. */
  get serviceDesc(): string {
    return `${this.base.slice(0, -STAC_PATH.length)}${OPENAPI_JSON_PATH}`;
  }
  get serviceDoc(): string {
    return `${this.base.slice(0, -STAC_PATH.length)}${DOCS_PATH}`;
  }
  get conformance(): string {
    return `${this.base}/conformance`;
  }
  get collections(): string {
    return `${this.base}/collections`;
  }
  get queryables(): string {
    return `${this.base}/queryables`;
  }
  get search(): string {
    return `${this.base}/search`;
  }
  collection(id: string): string {
    return `${this.base}/collections/${encodeURIComponent(id)}`;
  }
  items(collectionId: string): string {
    return `${this.collection(collectionId)}/items`;
  }
  item(collectionId: string, itemId: string): string {
    return `${this.items(collectionId)}/${encodeURIComponent(itemId)}`;
  }
  rootLink(): StacLink {
    return { rel: 'root', href: this.root, type: JSON_TYPE, title: 'Location Imagery Search' };
  }
}

// The GET URL of the same request with other parameter values (a next page's token).
export function withParameters(url: string, query: Record<string, string>, changed: Record<string, string>): string {
  const params = new URLSearchParams({ ...query, ...changed });
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}
