import { Module } from '@nestjs/common';
import { MapDataRepository } from './map-data.repository';

// The map's tables' upkeep, for the importers that change what tiles show (imagery, places).
@Module({
  providers: [MapDataRepository],
  exports: [MapDataRepository],
})
export class MapDataModule {}
