import { All, Body, Controller, Headers, HttpCode, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import { SearchDeadlineInterceptor } from '../database/search-deadline.interceptor';
import { ApiKeyGuard } from '../api-key/api-key.guard';
import { KeyQuotaGuard } from '../rate-limit/key-quota.guard';
import { MetricsService } from '../metrics/metrics.service';
import { RequestBodyGuard } from '../common/request-body.guard';
import { SearchRequestDto } from './dto/search-request.dto';
import { SearchResponseDto } from './dto/search-response.dto';
import { ApiSearch } from './search.openapi';
import { SearchService } from './search.service';

@ApiTags('search')
@Controller('search')
export class SearchController {
  constructor(
    private readonly searchService: SearchService,
    private readonly metrics: MetricsService,
  ) {}

  @Post()
  @HttpCode(200)
  @UseGuards(ApiKeyGuard, KeyQuotaGuard, RequestBodyGuard)
  @UseInterceptors(SearchDeadlineInterceptor)
  @ApiSearch()
  async search(
    @Body() request: SearchRequestDto,
    @Headers('accept-language') acceptLanguage?: string,
  ): Promise<SearchResponseDto> {
    const response = await this.searchService.search(request, acceptLanguage);
    // What each successful search returned; the service knows nothing of metrics.
    this.metrics.observeSearch(response.data.length, response.pageTotal);
    return response;
  }

  @All()
  @ApiExcludeEndpoint()
  methodNotAllowed(): never {
    throw new RequestException(RequestExceptionCode.METHOD_NOT_ALLOWED, 'Use POST /search', undefined, {
      Allow: 'POST',
    });
  }
}
