import { Module } from '@nestjs/common';
import { ImageryExportService } from './imagery-export.service';
import { ImageryImportService } from './imagery-import.service';
import { ImageryRepository } from './imagery.repository';
import { ImagerySourceDeletion } from './imagery-source-deletion.service';
import { ImageryPlaceLinkRepository } from './address-recovery/imagery-place-link.repository';
import { ImageryPlaceLinker } from './address-recovery/imagery-place-linker.service';
import { SearchIndexModule } from '../search-index/search-index.module';
import { MapDataModule } from '../map-data/map-data.module';

@Module({
  imports: [SearchIndexModule, MapDataModule],
  providers: [
    ImageryImportService,
    ImageryExportService,
    ImageryRepository,
    ImagerySourceDeletion,
    ImageryPlaceLinkRepository,
    ImageryPlaceLinker,
  ],
  exports: [ImageryImportService, ImageryExportService, ImageryRepository, ImagerySourceDeletion, ImageryPlaceLinker],
})
export class ImageryModule {}
