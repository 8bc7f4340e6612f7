import { Module } from '@nestjs/common';
import { ImageryImportService } from './imagery-import.service';
import { ImageryRepository } from './imagery.repository';

@Module({
  providers: [ImageryImportService, ImageryRepository],
  exports: [ImageryImportService, ImageryRepository],
})
export class ImageryModule {}
