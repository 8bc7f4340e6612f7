import { Module } from '@nestjs/common';
import { MapDataModule } from '../map-data/map-data.module';
import { GazetteerSeedService } from './gazetteer/gazetteer-seed.service';
import { PlaceImportService } from './place-import.service';
import { PlaceRepository } from './place.repository';

@Module({
  imports: [MapDataModule],
  providers: [PlaceImportService, PlaceRepository, GazetteerSeedService],
  exports: [PlaceImportService, PlaceRepository, GazetteerSeedService, MapDataModule],
})
export class PlacesModule {}
