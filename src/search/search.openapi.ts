import { applyDecorators } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiKeyAuth } from '../api-key/api-key.openapi';
import { ApiErrorResponse, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../common/error-response.dto';
import { HTTP_LIMITS } from '../common/http-server-limits';
import { MAX_BODY_BYTES } from '../common/json-body.middleware';
import { LIMIT_MAX, SearchResponseDto } from './search.dto';

const LIMIT_MESSAGE = `limit must be an integer between 1 and ${LIMIT_MAX}`;
const detail = (field: string, message: string) => ({ message, details: [{ field, message }] });

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
    ApiKeyAuth(),
    ApiOkResponse({ type: SearchResponseDto, description: 'A page of matches (empty when nothing matched)', headers: RATE_LIMIT_HEADERS }),
    ApiErrorResponse(400, 'The request is not acceptable', {
      INVALID_REQUEST: detail('limit', LIMIT_MESSAGE),
      MALFORMED_JSON: 'Request body is not valid JSON',
      INVALID_COORDINATES: detail('query', 'query looks like coordinates, but latitude 95 is out of range: it must be between -90 and 90'),
      INVALID_PLUS_CODE: detail('query', '9G8F+6X is a short plus code; give the full code (like 8FVC9G8F+6X) or a near point to recover it from'),
      INVALID_SORT: detail('sort', 'sort distance needs a point: coordinates or a plus code as query, near, or looking_at'),
    }),
    ApiErrorResponse(408, 'The request took too long to arrive', { REQUEST_TIMEOUT: 'The request took too long to arrive' }),
    ApiErrorResponse(413, 'The body is too large', { PAYLOAD_TOO_LARGE: `Request body must be at most ${MAX_BODY_BYTES} bytes` }),
    ApiErrorResponse(415, 'The body is not JSON', { UNSUPPORTED_MEDIA_TYPE: 'Content-Type must be application/json' }),
    ApiErrorResponse(431, 'The request headers are too large', {
      HEADERS_TOO_LARGE: `Request headers must be at most ${HTTP_LIMITS.maxHeaderBytes} bytes`,
    }),
    ApiErrorResponse(500, 'A bug; no details are exposed', { INTERNAL_ERROR: 'Internal server error' }),
    ApiErrorResponse(
      503,
      'The database cannot be reached',
      { DATABASE_UNAVAILABLE: 'The database is unavailable; retry shortly' },
      RETRY_AFTER_HEADER,
    ),
  );
}
