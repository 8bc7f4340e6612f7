import { Injectable } from '@nestjs/common';
import { GenerateSql, NoSql, SqlSubject } from '../database/generate-sql';
import { failureReason } from '../common/failure-reason';
import { PrismaService } from '../database/prisma.service';
import { PLACE_CANDIDATES, PLACE_TERM_MIN_PLACES } from './search-index-limits';

// Builds the place term lists (the most important places of every common word start, read by
// placeCandidatesSql; the rules are lis_refresh_place_terms in the place_term_lists migrations) again
// after places changed: place imports and the gazetteer seed end with it (relinkAfterPlaceImport), and
// the database skips the build when the places are what the last build saw.
@SqlSubject((db) => new PlaceTermListsRepository(db.prisma))
@Injectable()
export class PlaceTermListsRepository {
  constructor(private readonly prisma: PrismaService) {}

  // On a bulk connection: a large gazetteer's build outlasts the API's statement timeout
  // (docs/benchmarks.md#fig-place-term-lists).
  // Returns the lists built, or null when the places had not changed since the last build (force
  // builds anyway).
  @GenerateSql({ params: () => [false], answers: [[{ built: 0 }]] })
  async refresh(force = false): Promise<number | null> {
    const [row] = await this.prisma.bulkQuery<{ built: number | null }>(
      'lis-place-term-lists',
      'SELECT lis_refresh_place_terms($1, $2, $3) AS built',
      [PLACE_TERM_MIN_PLACES, PLACE_CANDIDATES, force],
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
