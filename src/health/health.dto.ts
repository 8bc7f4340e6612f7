import { ApiProperty, SchemaObject } from '@nestjs/swagger';

const CHECK_RESULT: SchemaObject = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['up', 'down'] } },
  additionalProperties: true,
};
const CHECKS = { type: 'object', additionalProperties: CHECK_RESULT } as const;

// @nestjs/terminus's result shape for a passing check.
export class HealthResponseDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';

  @ApiProperty({ ...CHECKS, description: 'Checks that passed', example: { database: { status: 'up' } } })
  info: Record<string, { status: string }>;

  @ApiProperty({ ...CHECKS, description: 'Checks that failed (empty when ok)', example: {} })
  error: Record<string, { status: string }>;

  @ApiProperty({ ...CHECKS, description: 'Every check', example: { database: { status: 'up' } } })
  details: Record<string, { status: string }>;
}
