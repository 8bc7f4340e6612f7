import { Injectable } from '@nestjs/common';
import { GenerateSql, SAMPLE_UUID, SAMPLE_UUID_2, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import type { SearchRow } from './search.repository';
import { recordByIdSql } from './sql/record-by-id.sql';
import { HistoryOf, recordHistorySql } from './sql/record-history.sql';

/** Another record at the spot of record `of`, looking the same way (include history). */
export interface HistoryRow {
  of: string;
  id: string;
  capturedAt: string;
  imageUrl: string;
}

// Records read by id rather than found by a search: one record (GET /images/{id}), and the other
// dates at the spot of each record of a page (include history).
@SqlSubject((db) => new RecordRepository(db.prisma))
@Injectable()
export class RecordRepository {
  constructor(private readonly prisma: PrismaService) {}

  @GenerateSql({ params: () => [SAMPLE_UUID] })
  async recordById(id: string): Promise<SearchRow | null> {
    const [row] = await this.prisma.rawQuery<SearchRow>(recordByIdSql(id));
    return row ?? null;
  }

  @GenerateSql({
    params: () => [
      [
        { id: SAMPLE_UUID, lon: 9.52, lat: 47.14, heading: 45, interactive: false },
        { id: SAMPLE_UUID_2, lon: 9.53, lat: 47.15, heading: null, interactive: true },
      ],
    ],
  })
  async recordHistory(records: readonly HistoryOf[]): Promise<HistoryRow[]> {
    if (records.length === 0) return [];
    return this.prisma.rawQuery<HistoryRow>(recordHistorySql(records));
  }
}
