import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiKeyGuard } from '../api-key/api-key.guard';
import { RequestBodyGuard } from '../common/request-body.guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SearchDeadlineInterceptor } from '../database/search-deadline.interceptor';
import { KeyQuotaGuard } from '../rate-limit/key-quota.guard';
import { GEOJSON_TYPE, stacBaseUrl, StacUrls } from './stac-links';
import { StacExceptionFilter } from './stac-exception.filter';
import { StacService } from './stac.service';

// The STAC API 1.0.0 (docs/stac.md): described by its own landing page and conformance classes, not
// by the service's OpenAPI document, whose error shape it does not share. The key rule is /search's.
@ApiExcludeController()
@Controller('stac')
@UseGuards(ApiKeyGuard, KeyQuotaGuard)
@UseFilters(new StacExceptionFilter())
export class StacController {
  constructor(
    private readonly stac: StacService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  landing(@Req() req: Request): Promise<object> {
    return this.stac.landing(this.urls(req));
  }

  @Get('conformance')
  conformance(): object {
    return this.stac.conformance();
  }

  @Get('queryables')
  @Header('Content-Type', 'application/schema+json')
  queryables(@Req() req: Request): Promise<object> {
    return this.stac.queryables(this.urls(req));
  }

  @Get('collections/:collectionId/queryables')
  @Header('Content-Type', 'application/schema+json')
  collectionQueryables(@Req() req: Request, @Param('collectionId') id: string): Promise<object> {
    return this.stac.queryables(this.urls(req), id);
  }

  @Get('collections')
  collections(@Req() req: Request): Promise<object> {
    return this.stac.collections(this.urls(req));
  }

  @Get('collections/:collectionId')
  collection(@Req() req: Request, @Param('collectionId') id: string): Promise<object> {
    return this.stac.collection(this.urls(req), id);
  }

  @Get('collections/:collectionId/items')
  @UseInterceptors(SearchDeadlineInterceptor)
  @Header('Content-Type', GEOJSON_TYPE)
  items(
    @Req() req: Request,
    @Param('collectionId') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<object> {
    return this.stac.items(this.urls(req), id, { raw: query, origin: 'query' });
  }

  @Get('collections/:collectionId/items/:itemId')
  @Header('Content-Type', GEOJSON_TYPE)
  item(
    @Req() req: Request,
    @Param('collectionId') collectionId: string,
    @Param('itemId') itemId: string,
  ): Promise<object> {
    return this.stac.item(this.urls(req), collectionId, itemId);
  }

  @Get('search')
  @UseInterceptors(SearchDeadlineInterceptor)
  @Header('Content-Type', GEOJSON_TYPE)
  searchByQuery(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<object> {
    return this.stac.search(this.urls(req), { raw: query, origin: 'query' });
  }

  @Post('search')
  @UseInterceptors(SearchDeadlineInterceptor)
  @HttpCode(200)
  @UseGuards(RequestBodyGuard)
  @Header('Content-Type', GEOJSON_TYPE)
  searchByBody(@Req() req: Request, @Body() body: Record<string, unknown>): Promise<object> {
    return this.stac.search(this.urls(req), { raw: body, origin: 'body' });
  }

  private urls(req: Request): StacUrls {
    return new StacUrls(stacBaseUrl(this.config.publicUrl, req.protocol, req.get('host')));
  }
}
