import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
  HeadersObject,
} from '@nestjs/swagger';

// The one error shape (see errorBody in app-exception.ts), described for the OpenAPI document.
export class ErrorDetailDto {
  @ApiProperty({ description: 'The request field, or (body) for the body as a whole', example: 'limit' })
  field: string;

  @ApiProperty({ example: 'limit must be an integer between 1 and 100' })
  message: string;
}

export class ErrorInfoDto {
  @ApiProperty({
    description: 'Stable machine-readable code; the responses list the codes each status can carry',
    pattern: '^[A-Z][A-Z_]*$',
    maxLength: 64,
    example: 'INVALID_REQUEST',
  })
  code: string;

  @ApiProperty({
    description: 'Human-readable; never contains internals',
    example: 'limit must be an integer between 1 and 100',
  })
  message: string;

  @ApiPropertyOptional({
    type: () => [ErrorDetailDto],
    minItems: 1,
    description: 'Present for validation errors: one entry per field',
  })
  details?: ErrorDetailDto[];
}

export class ErrorResponseDto {
  @ApiProperty({ enum: [false], example: false })
  isSuccess: false;

  @ApiProperty({ type: () => ErrorInfoDto })
  error: ErrorInfoDto;
}

// At most one rate-limit window (60 s); 5 s after a database outage.
export const RETRY_AFTER_HEADER: HeadersObject = {
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 60 },
  },
};

// draft-ietf-httpapi-ratelimit-headers fields, set by the rate-limit guards (see src/rate-limit/rate-limit-refusal.ts).
const POLICY_NAME = '"[a-z-]{1,32}"';
export const RATE_LIMIT_HEADERS: HeadersObject = {
  'RateLimit-Policy': {
    description: 'The quota: "per-key";q=600;w=60',
    schema: {
      type: 'string',
      pattern: `^${POLICY_NAME};q=\\d{1,6};w=\\d{1,4}$`,
      maxLength: 64,
      example: '"per-key";q=600;w=60',
    },
  },
  RateLimit: {
    description: 'What is left: "per-key";r=599;t=42',
    schema: {
      type: 'string',
      pattern: `^${POLICY_NAME};r=\\d{1,6};t=\\d{1,4}$`,
      maxLength: 64,
      example: '"per-key";r=599;t=42',
    },
  },
};

// Documents one error status: the shared shape, narrowed to the codes this status can carry, with an
// example per code. `examples` maps each code to an example message.
export function ApiErrorResponse(
  status: number,
  description: string,
  examples: Record<string, string | { message: string; details?: ErrorDetailDto[] }>,
  headers?: HeadersObject,
): MethodDecorator & ClassDecorator {
  const codes = Object.keys(examples);
  return applyDecorators(
    ApiExtraModels(ErrorResponseDto, ErrorInfoDto, ErrorDetailDto),
    ApiResponse({
      status,
      description: `${description}: ${codes.join(', ')}`,
      headers,
      // Explicit content: errors are JSON even where the success response is not (metrics, images).
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: getSchemaPath(ErrorResponseDto) },
              {
                type: 'object',
                properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } },
              },
            ],
          },
          examples: Object.fromEntries(
            Object.entries(examples).map(([code, example]) => {
              const { message, details } =
                typeof example === 'string' ? { message: example, details: undefined } : example;
              return [
                code,
                {
                  summary: code,
                  value: { isSuccess: false, error: { code, message, ...(details ? { details } : {}) } },
                },
              ];
            }),
          ),
        },
      },
    }),
  );
}

// Any route can fail with a bug; the answer never says more than this.
export function ApiInternalErrorResponse(): MethodDecorator & ClassDecorator {
  return ApiErrorResponse(500, 'A bug; no details are exposed', { INTERNAL_ERROR: 'Internal server error' });
}
