import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult } from '@nestjs/terminus';
import { ApiErrorResponse, ApiInternalErrorResponse, RETRY_AFTER_HEADER } from '../common/error-response.dto';
import { HealthResponseDto } from './health.dto';
import { HealthService } from './health.service';
import { ProbeRateGuard } from './probe-rate.guard';

// No API key: orchestrators and load balancers call these; a flood of them is answered slowly.
@ApiTags('operations')
@Controller('health')
@UseGuards(ProbeRateGuard)
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @HealthCheck({ swaggerDocumentation: false })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'healthLive',
    summary: 'Liveness: the process is up (never checks the database)',
    description: 'For an orchestrator deciding whether to restart the process. No key; does no work.',
  })
  @ApiOkResponse({ type: HealthResponseDto, description: 'Alive' })
  @ApiInternalErrorResponse()
  live(): Promise<HealthCheckResult> {
    return this.health.live();
  }

  @Get('ready')
  @HealthCheck({ swaggerDocumentation: false })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'healthReady',
    summary: 'Readiness: the database answers, migrations are applied and the process is not shutting down',
    description: 'For a load balancer deciding whether to send traffic here. No key; one bounded database round trip.',
  })
  @ApiInternalErrorResponse()
  @ApiOkResponse({ type: HealthResponseDto, description: 'Ready to serve' })
  @ApiErrorResponse(
    503,
    'Not ready; details name each failing check (shutdown, database, migrations)',
    {
      NOT_READY: {
        message: 'The service is not ready',
        details: [{ field: 'database', message: 'timeout of 1000ms exceeded' }],
      },
    },
    RETRY_AFTER_HEADER,
  )
  ready(): Promise<HealthCheckResult> {
    return this.health.ready();
  }
}
