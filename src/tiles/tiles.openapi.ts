import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { API_KEY_SECURITY } from '../api-key/api-key.openapi';
import {
  ApiErrorResponse,
  ApiInternalErrorResponse,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
} from '../common/error-response.dto';
import {
  COVERAGE_DETAIL_ZOOM,
  COVERAGE_EVERY_IMAGE_ZOOM,
  MAX_ZOOM,
  SEQUENCE_MAX_ZOOM,
  SEQUENCE_MIN_ZOOM,
} from './tile-limits';

export const MVT_CONTENT_TYPE = 'application/vnd.mapbox-vector-tile';

const CACHE_HEADERS = {
  ETag: {
    description: "The map's data version: changes after an import",
    schema: { type: 'string', pattern: '^"lis\\d+-\\d+"$', maxLength: 40 },
  },
  'Cache-Control': {
    description:
      "public, max-age=TILES_MAX_AGE_SECONDS; private, max-age=TILES_MAX_AGE_SECONDS with TILES_REQUIRE_KEY=true (a keyed tile is its holder's)",
    schema: { type: 'string', pattern: '^(public|private), max-age=\\d+$', maxLength: 40 },
  },
  Vary: {
    description: 'Names x-api-key with TILES_REQUIRE_KEY=true (and Accept-Encoding when compressed)',
    schema: { type: 'string', pattern: '^[A-Za-z-]+(, ?[A-Za-z-]+)*$', maxLength: 100 },
  },
};
// The largest column or row number, at zoom 20.
const MAX_INDEX = 2 ** MAX_ZOOM - 1;

// GET /tiles/{z}/{x}/{y}.mvt in the OpenAPI document (docs/map-tiles.md).
export function ApiTile(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'tile',
      summary:
        'A vector tile of the map: streets, paths, water, landuse, buildings, places, imagery coverage and its sequences',
      description:
        'Mapbox Vector Tile (extent 4096, buffer 64, EPSG:3857 tile grid). Layers and attributes: docs/map-tiles.md. ' +
        `Coverage is counted per grid cell below zoom ${COVERAGE_DETAIL_ZOOM}, one point per grid cell (its newest image) ` +
        `below ${COVERAGE_EVERY_IMAGE_ZOOM}, one point per image from ${COVERAGE_EVERY_IMAGE_ZOOM}; the sequences layer ` +
        `draws each sequence of photos as a line (id, newest date, 360 flag, count) at zooms ${SEQUENCE_MIN_ZOOM} to ${SEQUENCE_MAX_ZOOM}. ` +
        'No key by default (limited per client address, TILES_PER_MINUTE); with TILES_REQUIRE_KEY=true an x-api-key as /search. ' +
        'Send If-None-Match with the ETag for a 304. Gzip for Accept-Encoding: gzip (tiles over 8 KB).',
      security: [{}, { [API_KEY_SECURITY]: [] }],
    }),
    ApiParam({
      name: 'z',
      description: `zoom, 0 to ${MAX_ZOOM}`,
      schema: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_ZOOM },
    }),
    ApiParam({
      name: 'x',
      description: 'column, 0 to 2^z - 1',
      schema: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_INDEX },
    }),
    ApiParam({
      name: 'y',
      description: 'row, 0 to 2^z - 1, with .mvt',
      schema: { type: 'string', pattern: '^[0-9]{1,7}\\.mvt$', maxLength: 11 },
      example: '89.mvt',
    }),
    ApiProduces(MVT_CONTENT_TYPE),
    ApiResponse({
      status: 200,
      description: 'The tile',
      content: { [MVT_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary', maxLength: 8_000_000 } } },
      headers: { ...CACHE_HEADERS, ...RATE_LIMIT_HEADERS },
    }),
    ApiResponse({
      status: 204,
      description: 'Nothing lies in this tile',
      headers: { ...CACHE_HEADERS, ...RATE_LIMIT_HEADERS },
    }),
    ApiResponse({ status: 304, description: 'The copy named by If-None-Match is current', headers: CACHE_HEADERS }),
    ApiErrorResponse(
      400,
      'z, x or y is no tile',
      { INVALID_TILE: 'z must be a whole number from 0 to 20' },
      RATE_LIMIT_HEADERS,
    ),
    ApiErrorResponse(
      401,
      'With TILES_REQUIRE_KEY=true: no usable API key',
      { MISSING_API_KEY: 'Missing x-api-key header', INVALID_API_KEY: 'Invalid or revoked API key' },
      RATE_LIMIT_HEADERS,
    ),
    ApiErrorResponse(
      429,
      'Too many requests from this client address (or, with a key, for the key)',
      { RATE_LIMITED: 'Too many requests from this address (3000 per minute); retry in 42 s' },
      { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
    ),
    ApiErrorResponse(503, 'The database is unavailable', { DATABASE_UNAVAILABLE: 'Database unavailable' }),
    ApiInternalErrorResponse(),
  );
}
