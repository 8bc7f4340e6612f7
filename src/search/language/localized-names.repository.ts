import { Injectable } from '@nestjs/common';
import { GenerateSql, SAMPLE_UUID, SqlSubject } from '../../database/generate-sql';
import { PrismaService } from '../../database/prisma.service';
import { localizedNamesSql } from '../sql/localized-names.sql';
import type { LocalizablePlace } from './localized-label';

// Reads the places an answer shows with their names, and their label parts' names, in the languages asked for.
@SqlSubject((db) => new LocalizedNamesRepository(db.prisma))
@Injectable()
export class LocalizedNamesRepository {
  static localizedNamesSql = localizedNamesSql;

  constructor(private readonly prisma: PrismaService) {}

  @GenerateSql({ params: () => [[SAMPLE_UUID], ['de-ch', 'de']] })
  places(placeIds: string[], languages: string[]): Promise<LocalizablePlace[]> {
    if (placeIds.length === 0 || languages.length === 0) return Promise.resolve([]);
    return this.prisma.rawQuery<LocalizablePlace>(localizedNamesSql(placeIds, languages));
  }
}
