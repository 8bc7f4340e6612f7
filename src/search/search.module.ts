import { Module } from '@nestjs/common';
import { ApiKeyModule } from '../api-key/api-key.module';
import { PlaceMatcherService } from './place-matching/place-matcher.service';
import { PlaceMatchingRepository } from './place-matching/place-matching.repository';
import { RecordPlaces } from './place-matching/record-places';
import { TextSearchPipeline } from './pipeline/text-search.pipeline';
import { SearchController } from './search.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';
import { TextFoldRepository } from './text-fold/text-fold.repository';

// Everything a search needs besides the database (also used by the relevance suite and the benchmark).
export const SEARCH_PROVIDERS = [
  SearchService,
  TextSearchPipeline,
  SearchRepository,
  PlaceMatcherService,
  PlaceMatchingRepository,
  RecordPlaces,
  TextFoldRepository,
];

@Module({
  imports: [ApiKeyModule],
  controllers: [SearchController],
  providers: SEARCH_PROVIDERS,
})
export class SearchModule {}
