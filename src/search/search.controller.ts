import { All, Body, Controller, HttpCode, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import { ApiKeyGuard } from '../api-key/api-key.guard';
import { SearchMetricsInterceptor } from '../metrics/search-metrics.interceptor';
import { SearchRequestDto } from './search.dto';
import { SearchResponseDto } from './search-response.dto';
import { ApiSearch } from './search.openapi';
import { SearchService } from './search.service';

@ApiTags('search')
@Controller('search')
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Post()
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  @UseInterceptors(SearchMetricsInterceptor)
  @ApiSearch()
  search(@Body() request: SearchRequestDto): Promise<SearchResponseDto> {
    return this.searchService.search(request);
  }

  @All()
  @ApiExcludeEndpoint()
  methodNotAllowed(): never {
    throw new RequestException(RequestExceptionCode.METHOD_NOT_ALLOWED, 'Use POST /search', undefined, {
      Allow: 'POST',
    });
  }
}
