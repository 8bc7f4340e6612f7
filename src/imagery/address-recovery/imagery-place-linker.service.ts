import { Injectable } from '@nestjs/common';
import { PlaceTermListsRepository } from '../../search-index/place-term-lists.repository';
import { RankedWordListsRepository } from '../../search-index/ranked-word-lists.repository';
import { ImageryPlaceLinkRepository, RELINK_BATCH_SIZE, RelinkScope } from './imagery-place-link.repository';

export interface RelinkCounts {
  /** Records whose address or links changed. */
  relinked: number;
  /** Records looked at and left as they were. */
  unchanged: number;
  /** Why the ranked word lists or place term lists were not brought up to date at the end (searches stay correct). */
  listsNotRefreshed?: string;
}

export interface RelinkOptions {
  /** Records per statement (each its own transaction); default RELINK_BATCH_SIZE. */
  batchSize?: number;
  /** Called after every batch with the counts so far. */
  onProgress?: (counts: Readonly<RelinkCounts>) => void;
}

// Links imagery to the gazetteer: every record to the locality it lies in or is nearest to (and that
// locality's region and country), and records without an address of their own to a recovered address
// (nearest address place within 50 m, else nearest street within 50 m, else the locality). The rules
// are the SQL of ImageryPlaceLinkRepository (placeLinksSql); docs/places.md describes them.
@Injectable()
export class ImageryPlaceLinker {
  constructor(
    private readonly repository: ImageryPlaceLinkRepository,
    private readonly rankedLists: RankedWordListsRepository,
    private readonly placeTerms: PlaceTermListsRepository,
  ) {}

  // Links a set of records (an import batch's ids), in statements of at most RELINK_BATCH_SIZE ids.
  // Returns how many records changed.
  async linkRecords(ids: readonly string[]): Promise<number> {
    let changed = 0;
    for (let i = 0; i < ids.length; i += RELINK_BATCH_SIZE) {
      changed += await this.repository.linkIds(ids.slice(i, i + RELINK_BATCH_SIZE));
    }
    return changed;
  }

  // After places were imported: re-links the records with a recovered address (a nearer or better
  // place may now exist) and the records with no locality yet. Walks each set in id order in bounded
  // batches, each statement its own transaction, so a large catalogue never holds one long transaction
  // and an interrupted run keeps what it did; rows whose links are unchanged are not written.
  // Own addresses are never changed. Records that already have a locality and their own address keep
  // their locality; linkRecords re-links any set of records on request.
  async relinkAfterPlaceImport(options: RelinkOptions = {}): Promise<RelinkCounts> {
    const batchSize = Math.max(1, Math.trunc(options.batchSize ?? RELINK_BATCH_SIZE));
    const counts: RelinkCounts = { relinked: 0, unchanged: 0 };
    // Places may have changed: their term lists are built again (seconds per 500,000 places) unless the
    // database sees the places the last build saw (a re-run that changed nothing costs one scan).
    const placesWhyNot = await this.placeTerms.refreshOrWhyNot();
    if (placesWhyNot !== undefined) counts.listsNotRefreshed = `place term lists: ${placesWhyNot}`;
    // A record in both sets (recovered and unlinked) is linked by the first pass and, once it has a
    // locality, no longer in the second; without any locality it is examined twice and counted twice.
    for (const scope of ['recovered', 'unlinked'] as RelinkScope[]) {
      let after: string | null = null;
      for (;;) {
        const batch = await this.repository.relinkBatch(scope, after, batchSize);
        counts.relinked += batch.relinked;
        counts.unchanged += batch.examined - batch.relinked;
        options.onProgress?.(counts);
        if (batch.examined < batchSize || batch.lastId === null) break;
        after = batch.lastId;
      }
    }
    // Recovered addresses that changed leave the lists of their old words (trigger); back in the new ones.
    if (counts.relinked > 0) {
      const why = await this.rankedLists.refreshOrWhyNot();
      if (why !== undefined) counts.listsNotRefreshed = [counts.listsNotRefreshed, why].filter(Boolean).join('; ');
    }
    return counts;
  }
}
