import { Test } from '@nestjs/testing';
import { DatabaseModule } from '../../src/database/database.module';
import { PhotoImportService, PhotoImportSummary } from '../../src/photos/import/photo-import.service';
import { PhotosModule } from '../../src/photos/photos.module';
import { FileImageStore } from '../../src/photos/store/file-image-store';
import { testConfig } from './test-app';

/** Imports a folder of photos into the test database and the image store at `storeDir`, as the CLI does. */
export async function importPhotoFolder(folder: string, storeDir: string): Promise<PhotoImportSummary> {
  const config = testConfig({ imageStoreDir: storeDir });
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(config), PhotosModule],
  }).compile();
  await moduleRef.init();
  try {
    return await moduleRef
      .get(PhotoImportService)
      .importPhotos({ roots: [folder], store: await FileImageStore.open(storeDir) });
  } finally {
    await moduleRef.close();
  }
}
