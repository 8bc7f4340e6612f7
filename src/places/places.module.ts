import { Module } from '@nestjs/common';
import { GazetteerSeedService } from './gazetteer/gazetteer-seed.service';
import { PlaceImportService } from './place-import.service';
import { PlaceRepository } from './place.repository';

@Module({
  providers: [PlaceImportService, PlaceRepository, GazetteerSeedService],
  exports: [PlaceImportService, PlaceRepository, GazetteerSeedService],
})
export class PlacesModule {}
