import { Module } from '@nestjs/common';
import { PhotosModule } from '../photos/photos.module';
import { ApiKeyModule } from '../api-key/api-key.module';
import { PlaceMatcherService } from './place-matching/place-matcher.service';
import { PlaceMatchingRepository } from './place-matching/place-matching.repository';
import { LocalizedNamesRepository } from './language/localized-names.repository';
import { RecordPlaces } from './answer/record-places';
import { TextSearchPipeline } from './pipeline/text-search.pipeline';
import { RecordController } from './record.controller';
import { RecordRepository } from './record.repository';
import { RecordHistory } from './answer/record-history';
import { RecordLookupService } from './record-lookup.service';
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
  LocalizedNamesRepository,
  RecordPlaces,
  RecordHistory,
  RecordRepository,
  TextFoldRepository,
];

@Module({
  imports: [ApiKeyModule, PhotosModule],
  controllers: [SearchController, RecordController],
  providers: [...SEARCH_PROVIDERS, RecordLookupService],
  // For the STAC API's free-text `q` (src/stac).
  exports: [SearchService],
})
export class SearchModule {}
