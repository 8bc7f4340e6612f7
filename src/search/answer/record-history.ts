import { Inject, Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { formatCaptureDate, recordImageUrl } from './capture-format';
import { RecordRepository } from '../record.repository';
import type { SearchRow } from '../search.repository';

// include history: time travel. Each record of a page gets the other records taken at its spot and
// looking its way (sql/record-history.sql.ts says what counts as both), newest first.

export class HistoryEntryDto {
  @ApiProperty({ format: 'uuid', maxLength: 36 })
  id: string;

  @ApiProperty({ example: 'June 5, 2019', description: 'The capture date, as the record date' })
  date: string;

  @ApiProperty({ format: 'uri', pattern: '^https?://', description: 'The image, as the record image' })
  image: string;
}

interface HistoryRecord {
  id: string;
  history?: HistoryEntryDto[];
}

@Injectable()
export class RecordHistory {
  constructor(
    private readonly repository: RecordRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sets each record's `history` (records[i] is rows[i]): an empty list when it has no other date. */
  async attach(records: HistoryRecord[], rows: readonly SearchRow[]): Promise<void> {
    const found = await this.repository.recordHistory(
      rows.map((r) => ({ id: r.id, lon: r.lon, lat: r.lat, heading: r.heading, interactive: r.interactive })),
    );
    const byRecord = new Map<string, HistoryEntryDto[]>(records.map((r) => [r.id, []]));
    // Newest first, then by id, as each record's subquery reads them (a union keeps no order).
    found.sort((a, b) => b.capturedAt.localeCompare(a.capturedAt) || b.id.localeCompare(a.id));
    for (const h of found) {
      byRecord.get(h.of)?.push({
        id: h.id,
        date: formatCaptureDate(h.capturedAt),
        image: recordImageUrl(h.imageUrl, h.id, this.config),
      });
    }
    for (const record of records) record.history = byRecord.get(record.id) ?? [];
  }
}
