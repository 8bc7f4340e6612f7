import { Test } from '@nestjs/testing';
import { DatabaseModule } from '../../src/database/database.module';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { ImageryPlaceLinker } from '../../src/imagery/address-recovery/imagery-place-linker.service';
import { GAZETTEER_SOURCE } from '../../src/places/gazetteer/gazetteer-place';
import type { PlaceRecord } from '../../src/places/place-record';
import { PlaceRepository } from '../../src/places/place.repository';
import { PlacesModule } from '../../src/places/places.module';
import { importFixture, testConfig } from './test-app';

// Places of the world gazetteer and imagery records, loaded as the service loads them: the places
// through an import session of the gazetteer's source, the records imported (none may be refused),
// then every record linked to its places.
export async function loadGazetteerRecords(
  places: PlaceRecord[],
  features: object[],
  source: string | null = null,
): Promise<void> {
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig()), ImageryModule, PlacesModule],
  }).compile();
  await moduleRef.init();
  try {
    const session = await moduleRef.get(PlaceRepository).openImportSession({ source: GAZETTEER_SOURCE, dryRun: false });
    try {
      await session.writeBatch(places);
    } finally {
      await session.close();
    }
    const summary = await importFixture(features, source);
    if (summary.rejected > 0) throw new Error(`${summary.rejected} records rejected`);
    await moduleRef.get(ImageryPlaceLinker).relinkAfterPlaceImport();
  } finally {
    await moduleRef.close();
  }
}
