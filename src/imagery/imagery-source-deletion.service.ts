import { Injectable } from '@nestjs/common';
import { MapDataRepository } from '../map-data/map-data.repository';
import { RankedWordListsRepository } from '../search-index/ranked-word-lists.repository';
import { ImageryRepository, SourceCount } from './imagery.repository';

/** Records deleted per statement (each its own transaction). */
export const DELETE_SOURCE_BATCH = 5_000;

export interface SourceDeletion extends SourceCount {
  source: string;
  dryRun: boolean;
  seconds: number;
  /** Why the ranked word lists were not brought up to date, when they were not. */
  listsNotRefreshed?: string;
}

// Removes every record of a source (npm run import -- --delete-source <name>), with their photo
// details, in atomic batches: each batch is gone whole or not at all, no batch holds its rows' locks
// for long (searches and imports of other sources go on), and a run cut short is finished by running it
// again (what is gone is gone). Then the statistics, the ranked word lists and the map's coverage
// cells, as after an import. A dry run counts.
@Injectable()
export class ImagerySourceDeletion {
  constructor(
    private readonly imagery: ImageryRepository,
    private readonly rankedLists: RankedWordListsRepository,
    private readonly mapData: MapDataRepository,
  ) {}

  async deleteSource(
    source: string,
    options: { dryRun?: boolean; signal?: AbortSignal; onProgress?: (deleted: SourceCount) => void } = {},
  ): Promise<SourceDeletion> {
    const started = Date.now();
    const dryRun = options.dryRun === true;
    const done = (counts: SourceCount, more: Partial<SourceDeletion> = {}): SourceDeletion => ({
      source,
      dryRun,
      ...counts,
      seconds: (Date.now() - started) / 1000,
      ...more,
    });
    if (dryRun) return done(await this.imagery.countSource(source));

    const deleted: SourceCount = { records: 0, photos: 0 };
    while (!options.signal?.aborted) {
      const batch = await this.imagery.deleteSourceBatch(source, DELETE_SOURCE_BATCH);
      deleted.records += batch.records;
      deleted.photos += batch.photos;
      if (batch.records === 0) break;
      options.onProgress?.({ ...deleted });
    }
    if (deleted.records === 0) return done(deleted);
    await this.imagery.analyze();
    const listsNotRefreshed = await this.rankedLists.refreshOrWhyNot();
    await this.mapData.refreshCoverage();
    return done(deleted, listsNotRefreshed ? { listsNotRefreshed } : {});
  }
}
