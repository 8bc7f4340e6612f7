import { Injectable } from '@nestjs/common';
import { GenerateSql, POSTGRES_SESSION, SAMPLE_SOURCE, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import { PlaceAreaSession } from './place-area-session';
import { PlaceImportSession, PlaceImportSessionOptions } from './place-import-session';

export { PlaceImportSession } from './place-import-session';
export type { PlaceImportSessionOptions } from './place-import-session';

@SqlSubject((db) => new PlaceRepository(db.prisma))
@Injectable()
export class PlaceRepository {
  constructor(private readonly prisma: PrismaService) {}

  @GenerateSql({ params: () => [SAMPLE_SOURCE], answers: [[{ n: 0 }]] })
  async countBySource(source: string): Promise<number> {
    const rows = await this.prisma.$queryRaw<
      Array<{ n: number }>
    >`SELECT count(*)::int AS n FROM places WHERE source = ${source}`;
    return rows[0].n;
  }

  @GenerateSql({ params: () => [{ source: SAMPLE_SOURCE, dryRun: false }], answers: POSTGRES_SESSION })
  async openImportSession(options: PlaceImportSessionOptions): Promise<PlaceImportSession> {
    return PlaceImportSession.open(await this.prisma.openBulkConnection('lis-places-import'), options);
  }

  // A connection of its own for an OpenStreetMap import's boundaries (read while batches are written).
  @GenerateSql()
  async openAreaSession(): Promise<PlaceAreaSession> {
    return PlaceAreaSession.open(await this.prisma.openBulkConnection('lis-places-areas'));
  }
}
