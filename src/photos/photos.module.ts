import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ImageryModule } from '../imagery/imagery.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { PhotoImportService } from './import/photo-import.service';
import { PhotoIncludes } from './photo-includes';
import { PhotosRepository } from './photos.repository';
import { ImagesController } from './serving/images.controller';
import { ImagesService } from './serving/images.service';
import { ViewsController } from './serving/views.controller';
import { ViewsService } from './serving/views.service';
import { FileImageStore } from './store/file-image-store';
import { IMAGE_STORE } from './store/image-store';

// Photos: the import of camera files (PhotoImportService, used by `npm run import`), the image store,
// the images served from it (GET /images/{id}/{variant}.jpg) and the views rendered from them
// (GET /images/{id}/view.jpg: its controller first, so that the other route does not take view.jpg).
@Module({
  imports: [ImageryModule, RateLimitModule],
  controllers: [ViewsController, ImagesController],
  providers: [
    PhotoImportService,
    PhotosRepository,
    PhotoIncludes,
    ImagesService,
    ViewsService,
    {
      provide: IMAGE_STORE,
      useFactory: (config: AppConfig) => FileImageStore.reader(config.imageStoreDir),
      inject: [APP_CONFIG],
    },
  ],
  exports: [PhotoImportService, PhotosRepository, PhotoIncludes],
})
export class PhotosModule {}
