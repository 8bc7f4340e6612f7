import { Module } from '@nestjs/common';
import { ApiKeyModule } from '../api-key/api-key.module';
import { PhotosModule } from '../photos/photos.module';
import { SearchModule } from '../search/search.module';
import { StacController } from './stac.controller';
import { StacFreeText } from './stac-free-text';
import { StacRepository } from './stac.repository';
import { StacService } from './stac.service';

@Module({
  imports: [ApiKeyModule, SearchModule, PhotosModule],
  controllers: [StacController],
  providers: [StacService, StacRepository, StacFreeText],
})
export class StacModule {}
