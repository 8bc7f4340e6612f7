import { Injectable } from '@nestjs/common';
import type { Client } from 'pg';
import { GenerateSql, NoSql, SqlSubject } from '../database/generate-sql';
import { failureReason } from '../common/failure-reason';
import { shareAmongConnections } from '../database/bulk-import/shared-queue';
import { PrismaService } from '../database/prisma.service';
import { PREFIX_LIST_MIN_MATCHES, RANKED_LIST_MIN_DOCS, RANKED_LIST_SIZE } from './search-index-limits';

export interface RankedListsRefresh {
  /** Lists built from the whole catalogue (new common words, lists short after deletions, or all). */
  rebuilt: number;
  /** Lists that merged records changed since the last refresh. */
  merged: number;
}

interface RefreshPlan {
  since_old: Date | null;
  since_next: Date;
  merge: boolean;
  terms: string[];
  matches: string[];
}

/** Connections a refresh builds lists on when its caller does not say (imports pass their own). */
export const REFRESH_CONNECTIONS = 2;
// Terms in more addresses than this (a list's shortlist, list size x 5) are built one per statement;
// the rarer ones in groups of this many, so the connections share the work evenly without a round
// trip per term.
const BUILD_GROUP = 16;
const REFRESH_LOCK = 'lis_refresh_word_ranks';
export const FIRST_LOAD_RUNNING = 'a first load of the catalogue is under way (its end refreshes the lists)';

// Keeps the ranked word lists (the best records of every common word and of short prefixes spread
// over many words, in search order; see the ranked_word_lists and ranked_lists_in_parts migrations
// for the rules) up to date after the catalogue changed: imports and re-links call refresh() when
// they end. Deletions and changed addresses leave the lists at once (triggers); records written since
// the last refresh are merged.
@SqlSubject((db) => new RankedWordListsRepository(db.prisma))
@Injectable()
export class RankedWordListsRepository {
  constructor(private readonly prisma: PrismaService) {}

  // On bulk connections (a first build of a large catalogue's lists outlasts the API's statement
  // timeout): the first plans and merges under a session lock that keeps refreshes one at a time; the
  // lists to rebuild, commonest first, are shared out to `connections` connections as they free up
  // (one on the built-in database, whose connections share a session; docs/benchmarks.md#fig-lists-in-parallel).
  @GenerateSql({
    params: () => [2],
    answers: [
      [],
      [{ loading: false }],
      [
        {
          since_old: null,
          since_next: new Date(0),
          merge: false,
          terms: ['street', 'mar*'],
          matches: ['9000', '1200'],
        },
      ],
      [{ built: 1 }],
      [{ built: 1 }],
      [{ merged: 0 }],
    ],
  })
  async refresh(connections = REFRESH_CONNECTIONS): Promise<RankedListsRefresh> {
    const count = this.prisma.sharedSession ? 1 : Math.max(1, Math.trunc(connections));
    const clients: Client[] = [];
    try {
      const lead = await this.prisma.openBulkConnection('lis-ranked-lists');
      clients.push(lead);
      await lead.query('SELECT pg_advisory_lock(hashtext($1))', [REFRESH_LOCK]);
      // Mid first load the text index the builds read is not there (each would read the whole
      // catalogue): the load refreshes the lists when it has ended.
      const {
        rows: [{ loading }],
      } = await lead.query<{ loading: boolean }>('SELECT EXISTS (SELECT 1 FROM imagery_first_load) AS loading');
      if (loading) throw new Error(FIRST_LOAD_RUNNING);
      const {
        rows: [plan],
      } = await lead.query<RefreshPlan>('SELECT * FROM lis_plan_word_ranks($1, $2, $3)', [
        RANKED_LIST_MIN_DOCS,
        PREFIX_LIST_MIN_MATCHES,
        RANKED_LIST_SIZE,
      ]);
      const groups = buildGroups(plan.terms, plan.matches.map(Number));
      // More connections only speed the builds up: one the server refuses (max_connections) is done without.
      const extra = Math.min(count, groups.length) - 1;
      for (let i = 0; i < extra; i++) {
        const client = await this.prisma.openBulkConnection('lis-ranked-lists').catch(() => null);
        if (!client) break;
        clients.push(client);
      }
      // The first failure is what refresh throws (the builds that finished stay: each list is complete;
      // the next refresh does the rest).
      await shareAmongConnections(clients, groups, (client, group) =>
        client.query('SELECT lis_build_word_ranks($1, $2, $3) AS built', [
          group.terms,
          group.matches,
          RANKED_LIST_SIZE,
        ]),
      );
      const {
        rows: [{ merged }],
      } = await lead.query<{ merged: number }>('SELECT lis_merge_word_ranks($1, $2, $3, $4, $5) AS merged', [
        plan.since_old,
        plan.since_next,
        plan.merge,
        plan.terms,
        RANKED_LIST_SIZE,
      ]);
      return { rebuilt: plan.terms.length, merged };
    } finally {
      // Ending the lead connection releases its lock; on the built-in database the session outlives it.
      await clients[0]?.query('SELECT pg_advisory_unlock(hashtext($1))', [REFRESH_LOCK]).catch(() => undefined);
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    }
  }

  // For the writers that call refresh when they end: the lists are a ranking aid and every search
  // stays correct without them (a record missing from a list still matches, after the head), so a
  // failed refresh must not turn a finished import into a failed one. Returns why it failed, for the
  // writer to report; the next refresh catches up on everything written since the last one.
  @NoSql('runs refresh (declared there)')
  refreshOrWhyNot(connections?: number): Promise<string | undefined> {
    return failureReason(() => this.refresh(connections));
  }
}

// The terms to rebuild (commonest first, as planned) in the groups one statement builds: each term
// with a shortlist alone, the rarer ones BUILD_GROUP at a time.
function buildGroups(terms: string[], matches: number[]): Array<{ terms: string[]; matches: number[] }> {
  const groups: Array<{ terms: string[]; matches: number[] }> = [];
  terms.forEach((term, i) => {
    const last = groups[groups.length - 1];
    if (
      matches[i] > RANKED_LIST_SIZE * 5 ||
      !last ||
      last.matches[0] > RANKED_LIST_SIZE * 5 ||
      last.terms.length >= BUILD_GROUP
    )
      groups.push({ terms: [term], matches: [matches[i]] });
    else {
      last.terms.push(term);
      last.matches.push(matches[i]);
    }
  });
  return groups;
}
