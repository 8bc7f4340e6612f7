import { Controller, Get, Query, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import { SearchDeadlineInterceptor } from '../database/search-deadline.interceptor';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreetViewExceptionFilter } from './streetview-exception.filter';
import { StreetViewKeyGuard } from './streetview-key.guard';
import { parseStreetViewRequest } from './streetview-request';
import { StreetViewMetadata, StreetViewService } from './streetview.service';

// Google's path, so an app written against Google's endpoint needs only another base URL
// (docs/streetview.md). Google's shape is not this service's error shape: not in the OpenAPI document.
@ApiExcludeController()
@Controller('maps/api/streetview')
@UseFilters(new StreetViewExceptionFilter())
export class StreetViewController {
  constructor(private readonly streetView: StreetViewService) {}

  @Get('metadata')
  @UseGuards(StreetViewKeyGuard)
  @UseInterceptors(SearchDeadlineInterceptor)
  metadata(@Query() query: Record<string, unknown>): Promise<StreetViewMetadata> {
    return this.streetView.metadata(parseStreetViewRequest(query));
  }
}
