import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { formatCaptureDate, formatCompass, resolveImageUrl } from './imagery-format';
import { ImageryRecordDto, SearchRequestDto, SearchResponseDto } from './search.dto';
import { buildTextQuery, resultIdFor } from './search-query';
import { SearchPage, SearchRepository, SearchRow } from './search.repository';

@Injectable()
export class SearchService {
  constructor(
    private readonly repository: SearchRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async search(request: SearchRequestDto): Promise<SearchResponseDto> {
    const { limit, page } = request;
    const window = { limit, offset: (page - 1) * limit };
    const text = buildTextQuery(request.query);

    let result: SearchPage = { total: 0, rows: [] };
    if (text) {
      result = await this.repository.searchFullText(text, window);
      // Trigram matching only when full text finds nothing: it is slower and meant for misspellings.
      if (result.total === 0) result = await this.repository.searchFuzzy(text, window);
    }

    return {
      isSuccess: true,
      page,
      pageTotal: Math.ceil(result.total / limit),
      data: result.rows.map((row) => this.toRecord(row)),
      result_id: resultIdFor(request),
      region: 'global',
      region_id: null,
    };
  }

  private toRecord(row: SearchRow): ImageryRecordDto {
    return {
      id: row.id,
      address: row.address,
      date: formatCaptureDate(row.capturedAt),
      compass: formatCompass(row.heading),
      interactive: row.interactive,
      geometry: { type: 'Point', coordinates: [row.lon, row.lat] },
      image: resolveImageUrl(row.imageUrl, this.config.imageBaseUrl),
    };
  }
}
