import { Test, TestingModule } from '@nestjs/testing';
import { AppValidationPipe } from '../../src/common/validation.pipe';
import { DatabaseModule } from '../../src/database/database.module';
import { PhotosModule } from '../../src/photos/photos.module';
import { SEARCH_PROVIDERS } from '../../src/search/search.module';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { SearchService } from '../../src/search/search.service';
import { testConfig } from './test-app';

/** The search service on the test database, and a search that validates its body as the controller does. */
export async function startSearchService(): Promise<{
  moduleRef: TestingModule;
  search: (body: object) => Promise<SearchResponseDto>;
}> {
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig()), PhotosModule],
    providers: SEARCH_PROVIDERS,
  }).compile();
  await moduleRef.init();
  const service = moduleRef.get(SearchService);
  const pipe = new AppValidationPipe();
  const search = async (body: object) =>
    service.search((await pipe.transform(body, { type: 'body', metatype: SearchRequestDto })) as SearchRequestDto);
  return { moduleRef, search };
}
