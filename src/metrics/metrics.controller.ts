import { Controller, Get, Header, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrorResponse, ApiInternalErrorResponse } from '../common/error-response.dto';
import { MetricsTokenGuard } from './metrics-token.guard';
import { MetricsService } from './metrics.service';

export const METRICS_SECURITY = 'metrics-token';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @UseGuards(MetricsTokenGuard)
  @ApiOperation({
    operationId: 'metrics',
    summary: 'Prometheus metrics (text exposition format)',
    description:
      'Request durations by route template, search outcomes, database pool use and process metrics. Needs the METRICS_TOKEN bearer token; without one set, closed unless the server sets METRICS_OPEN=true.',
  })
  // No token is needed where METRICS_OPEN=true: `{}` makes it optional in the document.
  @ApiSecurity({})
  @ApiBearerAuth(METRICS_SECURITY)
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Metrics in Prometheus text format 0.0.4', schema: { type: 'string' } })
  @ApiErrorResponse(
    401,
    'the bearer token is missing or wrong (or METRICS_TOKEN is unset and METRICS_OPEN is not true)',
    {
      MISSING_METRICS_TOKEN: 'Missing Authorization: Bearer header',
      INVALID_METRICS_TOKEN: 'Invalid metrics token',
    },
  )
  @ApiInternalErrorResponse()
  async scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.type(this.metrics.registry.contentType);
    return this.metrics.metrics();
  }
}
