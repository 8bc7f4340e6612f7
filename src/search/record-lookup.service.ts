import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PhotoIncludes } from '../photos/photo-includes';
import { RecordPlaces } from './answer/record-places';
import { toRecord } from './answer/record-format';
import { RecordHistory } from './answer/record-history';
import type { IncludeName } from './dto/search-filters.dto';
import type { ImageryRecordDto } from './dto/search-response.dto';
import { RecordRepository } from './record.repository';

// The includes that describe a record by itself; the others (match, score, distance_m, total,
// interpretation) describe a record's place in a search's answer, which one record by id has not.
export const RECORD_INCLUDES = ['captured_at', 'heading', 'place', 'camera', 'sequence', 'history'] as const;
export type RecordIncludeName = (typeof RECORD_INCLUDES)[number];

// GET /images/{id}: one record in the contract's shape, with what `include` asks for, as a page of
// POST /search would give it (a client following a sequence's previous and next ids reads them here).
@Injectable()
export class RecordLookupService {
  constructor(
    private readonly repository: RecordRepository,
    private readonly recordPlaces: RecordPlaces,
    private readonly history: RecordHistory,
    private readonly photoIncludes: PhotoIncludes,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async record(id: string, names: readonly RecordIncludeName[]): Promise<ImageryRecordDto | null> {
    const row = await this.repository.recordById(id);
    if (!row) return null;
    const include = new Set<IncludeName>(names);
    const data = [toRecord(row, include, 0, this.config)];
    if (include.has('place')) {
      const [place] = await this.recordPlaces.placesOf([row], []);
      if (place) data[0].place = place;
    }
    if (include.has('history')) await this.history.attach(data, [row]);
    await this.photoIncludes.attach(data, {
      camera: include.has('camera'),
      capturedAt: include.has('captured_at'),
      sequence: include.has('sequence'),
    });
    return data[0];
  }
}
