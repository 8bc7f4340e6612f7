import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { GenerateSql, NoSql, SqlSubject } from '../../database/generate-sql';
import { PrismaService } from '../../database/prisma.service';
import { adoptDatabaseFolds, charactersToCalibrate, UNACCENT_RULES_FROM } from './text-fold';

const RETRY_MS = 30_000;

// The database is the reference for folding text (text-fold.ts): when the service starts, it asks the
// database how lis_normalize folds each character the committed rules or lower case change (about
// 4,000, one statement), and foldText follows its answers where they differ (another PostgreSQL
// release's unaccent rules). A database out of reach is asked again every 30 s; until then the
// committed rules apply.
@SqlSubject((db) => new TextFoldRepository(db.prisma))
@Injectable()
export class TextFoldRepository implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TextFold');
  private retry?: NodeJS.Timeout;

  constructor(private readonly prisma: PrismaService) {}

  @NoSql("calibrate's statement (declared there)")
  async onApplicationBootstrap(): Promise<void> {
    try {
      const differ = await this.calibrate();
      if (differ.length > 0) {
        this.logger.log(
          `The database folds ${differ.length} characters unlike ${UNACCENT_RULES_FROM}: its folds apply`,
        );
      }
    } catch (error) {
      this.logger.warn(`Could not read how the database folds text (${(error as Error).message}); retrying`);
      this.retry = setTimeout(() => void this.onApplicationBootstrap(), RETRY_MS).unref();
    }
  }

  @NoSql('stops the retry')
  onModuleDestroy(): void {
    clearTimeout(this.retry);
  }

  /** Adopts the database's folds; returns the characters it folds unlike the committed rules. */
  @GenerateSql({ params: () => [['Ł', 'ß', 'Ж']], answers: [[{ folded: ['l', 'ss', 'ж'] }]] })
  async calibrate(chars: readonly string[] = charactersToCalibrate()): Promise<string[]> {
    const [row] = await this.prisma.rawQuery<{ folded: string[] }>(
      Prisma.sql`SELECT array_agg(lis_normalize(c) ORDER BY i) AS folded
                 FROM unnest(${chars}::text[]) WITH ORDINALITY AS t(c, i)`,
    );
    return adoptDatabaseFolds(chars, row.folded);
  }
}
