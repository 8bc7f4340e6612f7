import { Injectable } from '@nestjs/common';
import { GenerateSql, NoSql, SqlSubject } from '../../database/generate-sql';
import { failureReason } from '../../common/failure-reason';
import { PrismaService } from '../../database/prisma.service';
import { PREFIX_LIST_MIN_MATCHES, RANKED_LIST_MIN_DOCS, RANKED_LIST_SIZE } from '../../search/search-limits';

export interface RankedListsRefresh {
  /** Lists built from the whole catalogue (new common words, lists short after deletions, or all). */
  rebuilt: number;
  /** Lists that merged records changed since the last refresh. */
  merged: number;
}

// Keeps the ranked word lists (the best records of every common word and of short prefixes spread
// over many words, in search order; see the ranked_word_lists migration for the rules, all in
// lis_refresh_word_ranks) up to date after the catalogue changed: imports and re-links call refresh()
// when they end. Deletions and changed addresses leave the lists at once (triggers); records written
// since the last refresh are merged.
@SqlSubject((db) => new RankedWordListsRepository(db.prisma))
@Injectable()
export class RankedWordListsRepository {
  constructor(private readonly prisma: PrismaService) {}

  // On a bulk connection: a first build takes seconds per million records, past the API's statement
  // timeout (measured in docs/benchmarks.md).
  @GenerateSql({ answers: [[{ rebuilt: 0, merged: 0 }]] })
  async refresh(): Promise<RankedListsRefresh> {
    const [row] = await this.prisma.bulkQuery<RankedListsRefresh>(
      'lis-ranked-lists',
      'SELECT rebuilt, merged FROM lis_refresh_word_ranks($1, $2, $3)',
      [RANKED_LIST_MIN_DOCS, PREFIX_LIST_MIN_MATCHES, RANKED_LIST_SIZE],
    );
    return row;
  }

  // For the writers that call refresh when they end: the lists are a ranking aid and every search
  // stays correct without them (a record missing from a list still matches, after the head), so a
  // failed refresh must not turn a finished import into a failed one. Returns why it failed, for the
  // writer to report; the next refresh catches up on everything written since the last one.
  @NoSql('runs refresh (declared there)')
  refreshOrWhyNot(): Promise<string | undefined> {
    return failureReason(() => this.refresh());
  }
}
