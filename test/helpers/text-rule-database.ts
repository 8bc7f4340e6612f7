import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrismaService } from '../../src/database/prisma.service';
import { adoptDatabaseFolds } from '../../src/search/text-fold/text-fold';
import { TextFoldRepository } from '../../src/search/text-fold/text-fold.repository';
import { createThrowawayDatabase, currentKind, ThrowawayDatabase, TestDatabaseKind } from '../setup/test-database';
import { withClient } from './places';
import { testConfig } from './test-app';

const FUNCTIONS = join(__dirname, '..', '..', 'src', 'database', 'functions');

export interface TextRuleDatabase {
  url: string;
  prisma: PrismaService;
  /** The characters the database folds unlike the committed rules (TextFoldRepository.calibrate). */
  differ: string[];
  close(): Promise<void>;
}

// The database the text rules (folding, splitting) are compared on: the test database, or for the
// other kind a bare throwaway one holding unaccent and the given functions as the migrations leave them
// (src/database/functions/). The service's folds are calibrated against it, as at start.
export async function textRuleDatabase(kind: TestDatabaseKind, functionFiles: string[]): Promise<TextRuleDatabase> {
  let url = process.env.DATABASE_URL!;
  let extra: ThrowawayDatabase | undefined;
  if (kind !== currentKind()) {
    extra = await createThrowawayDatabase(kind);
    url = extra.url;
    await withClient(async (c) => {
      await c.query('CREATE EXTENSION IF NOT EXISTS unaccent');
      for (const f of functionFiles) await c.query(readFileSync(join(FUNCTIONS, f), 'utf8'));
    }, url);
  }
  const embedded = kind === 'embedded' ? { dbPreparedStatements: false, dbSharedSession: true } : {};
  const prisma = new PrismaService(testConfig({ databaseUrl: url, ...embedded }));
  await prisma.onModuleInit();
  const differ = await new TextFoldRepository(prisma).calibrate();
  return {
    url,
    prisma,
    differ,
    close: async () => {
      adoptDatabaseFolds([], []);
      await prisma.onModuleDestroy();
      await extra?.drop();
    },
  };
}
