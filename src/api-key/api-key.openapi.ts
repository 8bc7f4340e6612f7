import { applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiErrorResponse } from '../common/error-response.dto';

export const API_KEY_SECURITY = 'x-api-key';

// Routes behind ApiKeyGuard: the security requirement and the two answers the guard can give.
export function ApiKeyAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiSecurity(API_KEY_SECURITY),
    ApiErrorResponse(401, 'No usable API key', {
      MISSING_API_KEY: 'Missing x-api-key header',
      INVALID_API_KEY: 'Invalid or revoked API key',
    }),
  );
}
