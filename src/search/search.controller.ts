import { All, Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import { ApiKeyGuard } from '../api-key/api-key.guard';
import { SearchRequestDto, SearchResponseDto } from './search.dto';
import { SearchService } from './search.service';

@Controller('search')
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Post()
  @HttpCode(200)
  @UseGuards(ApiKeyGuard)
  search(@Body() request: SearchRequestDto): Promise<SearchResponseDto> {
    return this.searchService.search(request);
  }

  @All()
  methodNotAllowed(): never {
    throw new RequestException(RequestExceptionCode.METHOD_NOT_ALLOWED, 'Use POST /search', undefined, { Allow: 'POST' });
  }
}
