import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiKeyAuth } from '../api-key/api-key.openapi';
import {
  ApiErrorResponse,
  ApiInternalErrorResponse,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
} from '../common/error-response.dto';
import { HTTP_LIMITS } from '../common/http-server-limits';
import { MAX_BODY_BYTES } from '../common/json-body.middleware';
import { LIMIT_MAX, SearchRequestDto } from './dto/search-request.dto';
import { NEWEST_PER_SPOT_UNAVAILABLE } from './search.exception';
import { SearchResponseDto } from './dto/search-response.dto';

const LIMIT_MESSAGE = `limit must be an integer between 1 and ${LIMIT_MAX}`;
const detail = (field: string, message: string) => ({ message, details: [{ field, message }] });

// Whole requests, each valid as it stands (a test sends every one): tools that build requests from
// examples get these instead of one merged from the property examples (which would pair facing with
// heading, a combination the API refuses).
export const SEARCH_REQUEST_EXAMPLES = {
  text: { summary: 'An address', value: { query: 'Herrengasse 35, Vaduz', limit: 5, page: 1 } },
  filtered: {
    summary: 'A place with filters, newest first, with the total',
    value: {
      query: 'Vaduz',
      captured_after: '2015-01-01',
      captured_before: '2024-12-31',
      interactive: false,
      facing: 'W',
      sort: 'newest',
      include: ['total', 'captured_at'],
    },
  },
  near: {
    summary: 'Around a point, heading roughly north, with distances',
    value: { near: { lat: 47.14, lon: 9.52, radius_m: 500 }, heading: { min: 350, max: 10 }, include: ['distance_m'] },
  },
  coordinates: {
    summary: 'Coordinates with a wider radius; how far the nearest imagery is when none is within it',
    value: { query: '47.14, 9.52', near: { radius_m: 2000 }, include: ['interpretation'] },
  },
  area: {
    summary: 'Everything in a box, newest first',
    value: { bbox: [9.47, 47.05, 9.64, 47.27], sort: 'newest', limit: 20 },
  },
  looking_at: {
    summary: 'Imagery that looks at a building',
    value: {
      looking_at: { lat: 47.1393, lon: 9.5217, fov_deg: 60, radius_m: 100 },
      include: ['heading', 'distance_m'],
    },
  },
};

// Read when the body gives no `lang` (docs/api.md#language).
const ACCEPT_LANGUAGE = ApiHeader({
  name: 'accept-language',
  required: false,
  description:
    'Without lang in the body: the languages to write place labels, recovered addresses and region names in, ' +
    'in order of preference (the first 8 read; entries that are no language tag skipped).',
  schema: {
    type: 'string',
    maxLength: 1000,
    pattern: '^[A-Za-z0-9*,;=. _-]*$',
    example: 'de-CH, de;q=0.9, en;q=0.5',
  },
});

// The OpenAPI description of POST /search: every answer it can give.
export function ApiSearch(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'search',
      summary: 'Find street-level imagery for a free-text place, coordinates, a plus code or an area',
      description:
        'Text queries match the address (case- and accent-insensitive, every word required, the last as a prefix), ' +
        'with abbreviation and spelling correction and a trigram fallback. Optional filters (near, bbox, capture dates, ' +
        'interactive, facing or heading, looking_at) all apply; sort picks the order, always ending with the id. ' +
        'include adds opt-in fields; without it the response is exactly the documented required fields.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: SearchRequestDto, examples: SEARCH_REQUEST_EXAMPLES }),
    ACCEPT_LANGUAGE,
    ApiKeyAuth(),
    ApiOkResponse({
      type: SearchResponseDto,
      description: 'A page of matches (empty when nothing matched)',
      headers: RATE_LIMIT_HEADERS,
    }),
    // 400, 413 and 415 come after authentication and rate limiting, so they carry the RateLimit fields.
    ApiErrorResponse(
      400,
      'The request is not acceptable',
      {
        INVALID_REQUEST: detail('limit', LIMIT_MESSAGE),
        MALFORMED_JSON: 'Request body is not valid JSON',
        INVALID_COORDINATES: detail(
          'query',
          'query looks like coordinates, but latitude 95 is out of range: it must be between -90 and 90',
        ),
        INVALID_PLUS_CODE: detail(
          'query',
          '9G8F+6X is a short plus code; give the full code (like 8FVC9G8F+6X) or a near point to recover it from',
        ),
        INVALID_SORT: detail(
          'sort',
          'sort distance needs a point: coordinates or a plus code as query, near, or looking_at',
        ),
        FILTER_UNAVAILABLE: detail('newest_per_spot', NEWEST_PER_SPOT_UNAVAILABLE),
      },
      RATE_LIMIT_HEADERS,
    ),
    ApiErrorResponse(408, 'The request took too long to arrive', {
      REQUEST_TIMEOUT: 'The request took too long to arrive',
    }),
    ApiErrorResponse(
      413,
      'The body is too large',
      { PAYLOAD_TOO_LARGE: `Request body must be at most ${MAX_BODY_BYTES} bytes` },
      RATE_LIMIT_HEADERS,
    ),
    ApiErrorResponse(
      415,
      'The body is not UTF-8 JSON',
      { UNSUPPORTED_MEDIA_TYPE: 'Content-Type must be application/json' },
      RATE_LIMIT_HEADERS,
    ),
    ApiErrorResponse(431, 'The request headers are too large', {
      HEADERS_TOO_LARGE: `Request headers must be at most ${HTTP_LIMITS.maxHeaderBytes} bytes`,
    }),
    ApiInternalErrorResponse(),
    ApiErrorResponse(
      503,
      'The database cannot be reached',
      { DATABASE_UNAVAILABLE: 'The database is unavailable; retry shortly' },
      RETRY_AFTER_HEADER,
    ),
  );
}
