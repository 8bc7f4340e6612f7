import { applyDecorators } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiKeyAuth } from '../api-key/api-key.openapi';
import { ApiErrorResponse, RETRY_AFTER_HEADER } from '../common/error-response.dto';
import { MAX_BODY_BYTES } from '../common/json-body.middleware';
import { LIMIT_MAX, SearchResponseDto } from './search.dto';

const LIMIT_MESSAGE = `limit must be an integer between 1 and ${LIMIT_MAX}`;

// The OpenAPI description of POST /search: every answer it can give.
export function ApiSearch(): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      operationId: 'search',
      summary: 'Find street-level imagery for a free-text place',
      description:
        'Full-text match on the address (case- and accent-insensitive, every word required, the last as a prefix), ' +
        'falling back to trigram similarity for misspellings. Ordered by score, then id.',
    }),
    ApiConsumes('application/json'),
    ApiKeyAuth(),
    ApiOkResponse({ type: SearchResponseDto, description: 'A page of matches (empty when nothing matched)' }),
    ApiErrorResponse(400, 'The request is not acceptable', {
      INVALID_REQUEST: { message: LIMIT_MESSAGE, details: [{ field: 'limit', message: LIMIT_MESSAGE }] },
      MALFORMED_JSON: 'Request body is not valid JSON',
    }),
    ApiErrorResponse(413, 'The body is too large', { PAYLOAD_TOO_LARGE: `Request body must be at most ${MAX_BODY_BYTES} bytes` }),
    ApiErrorResponse(415, 'The body is not JSON', { UNSUPPORTED_MEDIA_TYPE: 'Content-Type must be application/json' }),
    ApiErrorResponse(500, 'A bug; no details are exposed', { INTERNAL_ERROR: 'Internal server error' }),
    ApiErrorResponse(
      503,
      'The database cannot be reached',
      { DATABASE_UNAVAILABLE: 'The database is unavailable; retry shortly' },
      RETRY_AFTER_HEADER,
    ),
  );
}
