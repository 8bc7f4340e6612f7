import { Module } from '@nestjs/common';
import { ImageryExportService } from './imagery-export.service';
import { ImageryImportService } from './imagery-import.service';
import { ImageryRepository } from './imagery.repository';

@Module({
  providers: [ImageryImportService, ImageryExportService, ImageryRepository],
  exports: [ImageryImportService, ImageryExportService, ImageryRepository],
})
export class ImageryModule {}
