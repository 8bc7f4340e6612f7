import { Injectable } from '@nestjs/common';
import { GenerateSql, NoSql, SqlSubject } from '../../database/generate-sql';
import { failureReason } from '../../common/failure-reason';
import { PrismaService } from '../../database/prisma.service';
import { PLACE_CANDIDATES, PLACE_TERM_MIN_PLACES } from './place-candidates.sql';

// Builds the place term lists (the most important places of every common word start, read by
// placeCandidatesSql; the rules are lis_refresh_place_terms in the place_term_lists migration) again
// after places changed: place imports and the gazetteer seed end with it (relinkAfterPlaceImport).
@SqlSubject((db) => new PlaceTermListsRepository(db.prisma))
@Injectable()
export class PlaceTermListsRepository {
  constructor(private readonly prisma: PrismaService) {}

  // On a bulk connection: 8.8 s for 530,000 places (the 1M bench's), past the API's statement timeout.
  @GenerateSql({ answers: [[{ built: 0 }]] })
  async refresh(): Promise<number> {
    const [row] = await this.prisma.bulkQuery<{ built: number }>(
      'lis-place-term-lists',
      'SELECT lis_refresh_place_terms($1, $2) AS built',
      [PLACE_TERM_MIN_PLACES, PLACE_CANDIDATES],
    );
    return row.built;
  }

  // Searches stay correct without the lists (a term without one is looked up in the index), so a
  // failed build must not fail the import that asked for it: returns why, for the caller to report.
  @NoSql('runs refresh (declared there)')
  refreshOrWhyNot(): Promise<string | undefined> {
    return failureReason(() => this.refresh());
  }
}
