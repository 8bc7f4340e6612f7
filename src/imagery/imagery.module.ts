import { Module } from '@nestjs/common';
import { ImageryExportService } from './imagery-export.service';
import { ImageryImportService } from './imagery-import.service';
import { ImageryRepository } from './imagery.repository';
import { ImageryPlaceLinkRepository } from './address-recovery/imagery-place-link.repository';
import { ImageryPlaceLinker } from './address-recovery/imagery-place-linker.service';
import { PlaceTermListsRepository } from '../search/place-matching/place-term-lists.repository';
import { RankedWordListsRepository } from './ranked-lists/ranked-word-lists.repository';

@Module({
  providers: [
    ImageryImportService,
    ImageryExportService,
    ImageryRepository,
    ImageryPlaceLinkRepository,
    ImageryPlaceLinker,
    RankedWordListsRepository,
    PlaceTermListsRepository,
  ],
  exports: [ImageryImportService, ImageryExportService, ImageryRepository, ImageryPlaceLinker],
})
export class ImageryModule {}
