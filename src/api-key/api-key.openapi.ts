import { applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiErrorResponse, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../common/error-response.dto';

export const API_KEY_SECURITY = 'x-api-key';

// Routes behind ApiKeyGuard and KeyQuotaGuard: the security requirement and the answers the guards
// can give (429: the key's quota, or failed attempts per client address).
export function ApiKeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiSecurity(API_KEY_SECURITY),
    ApiErrorResponse(
      401,
      'No usable API key',
      { MISSING_API_KEY: 'Missing x-api-key header', INVALID_API_KEY: 'Invalid or revoked API key' },
      RATE_LIMIT_HEADERS,
    ),
    ApiErrorResponse(
      429,
      "The key's rate limit, or too many failed authentications from this address",
      { RATE_LIMITED: 'Rate limit of 600 requests per minute exceeded; retry in 42 s' },
      { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
    ),
  );
}
