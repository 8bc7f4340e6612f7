import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { DatabaseModule } from '../../src/database/database.module';
import { readFeatures } from '../../src/imagery/formats/imagery-feature.reader';
import { formatFromPath, openInput } from '../../src/import-formats/import-input';
import { ImageryImportService, ImportOptions } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { prismaClient, resetImagery, testConfig } from './test-app';

// The importer as the imagery import specs drive it: the Nest module on the test database, and files in a
// throwaway directory.

export interface Importer {
  moduleRef: TestingModule;
  importer: ImageryImportService;
  prisma: PrismaClient;
}

export async function startImporter(): Promise<Importer> {
  await resetImagery();
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig()), ImageryModule],
  }).compile();
  await moduleRef.init();
  return { moduleRef, importer: moduleRef.get(ImageryImportService), prisma: prismaClient() };
}

/** Files to import and what the table holds; `ctx` is read on each call. */
export function importerTools(ctx: () => Pick<Importer, 'importer' | 'prisma'>) {
  const dir = mkdtempSync(join(tmpdir(), 'lis-import-'));

  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const importFile = async (path: string, options: ImportOptions = {}) =>
    ctx().importer.importFeatures(readFeatures((await openInput(path)).stream, formatFromPath(path)!), {
      source: 'test',
      ...options,
    });
  const count = (source?: string) => ctx().prisma.imagery.count(source ? { where: { source } } : undefined);
  // Row versions: a rewrite (or even a row lock) shows up in xmin/xmax.
  const versions = () => ctx().prisma.$queryRaw<Array<{ id: string; xmin: string; xmax: string; updated_at: Date }>>`
    SELECT id::text, xmin::text, xmax::text, updated_at FROM imagery ORDER BY id`;
  const removeFiles = () => rmSync(dir, { recursive: true, force: true });

  return { dir, write, importFile, count, versions, removeFiles };
}
