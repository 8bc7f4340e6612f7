import { Setting, httpUrl, integer, matching, text, trueOrFalse } from './setting-types';

// The image, view and map settings: where photos are stored, how views are drawn and cached, tiles. Rows of SETTINGS (settings.ts).
export const IMAGE_SETTINGS = {
  imageBaseUrl: {
    env: 'IMAGE_BASE_URL',
    type: httpUrl,
    shownDefault: '`PUBLIC_URL`',
    meaning: 'base for relative image paths',
  },
  imageStoreDir: {
    env: 'IMAGE_STORE_DIR',
    type: text('a directory'),
    shownDefault: '`$DATA_DIR/images`',
    meaning:
      'where photo imports keep the originals and their derivatives (content-addressed) and `/images/...` serves them from. See [data.md](data.md#photos)',
  },
  viewCacheMb: {
    env: 'VIEW_CACHE_MB',
    type: integer(0, 1_000_000),
    default: 512,
    meaning:
      'megabytes of rendered views (`/images/{id}/view.jpg`) kept on disk in `$IMAGE_STORE_DIR/views`, the oldest removed past it; `0`: none kept. See [api.md](api.md#rendered-views)',
  },
  viewPixelsMb: {
    env: 'VIEW_PIXELS_MB',
    type: integer(0, 100_000),
    default: 256,
    meaning:
      'megabytes of decoded photo pixels kept in memory per process for rendered views (the next view of the same photo only remaps), the least recently used dropped past it; `0`: none kept. See [api.md](api.md#rendered-views)',
  },
  viewsPerMinute: {
    env: 'VIEWS_PER_MINUTE',
    type: integer(1, 100_000),
    default: 600,
    meaning: '`GET /images/{id}/view.jpg` requests per client address per minute before 429 (the route needs no key)',
  },
  imageUrlSecret: {
    env: 'IMAGE_URL_SECRET',
    type: matching(/^[\x21-\x7e]{32,200}$/, '32 to 200 printable ASCII characters without spaces'),
    shownDefault: "unset: photos' image URLs are public",
    meaning:
      "makes photos' image URLs private: each URL a search returns carries a signature of its record (`?sig=`), `/images/...` answers 404 without a valid one, and caching is `private`. See [api.md](api.md#images)",
  },
  mapStyleUrl: {
    env: 'MAP_STYLE_URL',
    type: httpUrl,
    shownDefault: "unset: the service's own style (/map/style.json)",
    meaning:
      "a MapLibre style JSON for the web page's map instead of the service's own (other vector tiles); the page may then fetch from that URL's origin (its tiles, glyphs and sprites must be there too). See [web-page.md](web-page.md#map)",
  },
  tilesRequireKey: {
    env: 'TILES_REQUIRE_KEY',
    type: trueOrFalse,
    default: false,
    meaning:
      "`true`: `GET /tiles/{z}/{x}/{y}.mvt` needs `x-api-key` and counts against the key's limit, as `/search` does; `false`: tiles are public, limited per client address (TILES_PER_MINUTE)",
  },
  tilesPerMinute: {
    env: 'TILES_PER_MINUTE',
    type: integer(1, 100_000),
    default: 3000,
    meaning:
      'tile requests per client address per minute before 429 when tiles need no key (a map view loads 10 to 40 tiles at a time)',
  },
  tilesMaxAgeSeconds: {
    env: 'TILES_MAX_AGE_SECONDS',
    type: integer(0, 31_536_000),
    default: 86400,
    meaning:
      'how long a browser may keep a tile without asking again (`Cache-Control: max-age`; `private` with TILES_REQUIRE_KEY=true); after that it revalidates with its ETag, which an import changes',
  },
  demoImagesPerMinute: {
    env: 'DEMO_IMAGES_PER_MINUTE',
    type: integer(1, 100_000),
    default: 300,
    meaning: '`GET /demo-images/{id}.svg` requests per client address per minute before 429 (the route needs no key)',
  },
} satisfies Record<string, Setting<unknown>>;
