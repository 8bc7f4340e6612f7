import { Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import type { Client } from 'pg';
import { GenerateSql, SAMPLE_SOURCE, SAMPLE_UUID, SAMPLE_UUID_2, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import { ImageryFirstLoadSession } from './first-load/imagery-first-load-session';
import { ImageryRecord } from './imagery-feature';
import { photoObjectSql } from './photo-details/photo-details';
import { ImageryImportSession, ImportSessionOptions } from './imagery-import-session';

export { BULK_STATEMENT_TIMEOUT_MS } from '../database/prisma.service';
export { ImageryImportSession } from './imagery-import-session';
export type { BatchResult, ImportSessionOptions, UpsertCounts } from './imagery-import-session';
export { importSql, importTables } from './imagery-import.sql';

/** Records of a source, and how many of them have photo details. */
export interface SourceCount {
  records: number;
  photos: number;
}

export interface ExportFilter {
  source?: string | null;
}

// The export shape: exactly what the importer reads back.
const RECORD_COLUMNS = `id::text AS id, address, address_origin AS "addressOrigin", source, to_char(captured_at, 'YYYY-MM-DD') AS "capturedAt",
  heading, interactive, image_url AS "imageUrl", ST_X(location) AS lon, ST_Y(location) AS lat`;

// One page of the export: keyset pagination along the primary key ($2: the last id of the previous page),
// with a photo record's details (a photos_pkey probe per record; null for any other record).
export const EXPORT_PAGE = `SELECT i.id::text AS id, i.address, i.address_origin AS "addressOrigin", i.source,
    to_char(i.captured_at, 'YYYY-MM-DD') AS "capturedAt", i.heading, i.interactive, i.image_url AS "imageUrl",
    ST_X(i.location) AS lon, ST_Y(i.location) AS lat, ${photoObjectSql('p')} AS photo
  FROM imagery i LEFT JOIN photos p ON p.id = i.id
  WHERE ($1::text IS NULL OR i.source = $1) AND ($2::uuid IS NULL OR i.id > $2) ORDER BY i.id LIMIT $3`;

// Whether any record has another source than $1, a record without one included.
export const recordsOutsideSql = (source: string) => Prisma.sql`
  SELECT EXISTS (SELECT 1 FROM imagery WHERE source < ${source}::text)
    OR EXISTS (SELECT 1 FROM imagery WHERE source > ${source}::text)
    OR EXISTS (SELECT 1 FROM imagery WHERE source IS NULL) AS others`;

const RECORD_ROW = { id: SAMPLE_UUID, address: 'Herrengasse 35, 9490 Vaduz', capturedAt: '2024-05-01', heading: 90 };

@SqlSubject((db) => new ImageryRepository(db.prisma))
@Injectable()
export class ImageryRepository {
  constructor(private readonly prisma: PrismaService) {}

  @GenerateSql({
    name: 'a source, two connections',
    params: () => [{ source: SAMPLE_SOURCE, dryRun: false, trackSeen: true, connections: 2 }],
    answers: [[{ pglite: false }], [{ locked: true }]],
  })
  async openImportSession(options: ImportSessionOptions): Promise<ImageryImportSession> {
    const count = Math.max(1, Math.trunc(options.connections ?? 1));
    const clients = await Promise.allSettled(
      Array.from({ length: count }, () => this.prisma.openBulkConnection('lis-import')),
    );
    const failed = clients.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    const opened = clients.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
    if (failed) {
      await Promise.all(opened.map((c) => c.end().catch(() => undefined)));
      throw failed.reason;
    }
    return ImageryImportSession.open(opened, options);
  }

  // A first load whose process died left the catalogue without its secondary indexes: the server's
  // start finishes it on two connections (see ImageryFirstLoadSession). Returns whether there was one.
  @GenerateSql({ name: 'none left', answers: [[{ held: true }], [{ abandoned: false }]] })
  async finishAbandonedFirstLoad(): Promise<boolean> {
    if (this.prisma.sharedSession) return false;
    const clients: Client[] = [];
    try {
      for (let i = 0; i < 2; i++) clients.push(await this.prisma.openBulkConnection('lis-first-load'));
      return await ImageryFirstLoadSession.finishAbandoned(clients);
    } finally {
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    }
  }

  // Streams the catalogue (or one source) in id order, a page at a time, all pages from one snapshot.
  @GenerateSql({
    name: 'one source, a page of two (the second page is short)',
    params: () => [{ source: SAMPLE_SOURCE }, 2],
    answers: [[], [RECORD_ROW, { ...RECORD_ROW, id: SAMPLE_UUID_2 }], []],
  })
  async *exportRecords(filter: ExportFilter = {}, pageSize = 2000): AsyncGenerator<ImageryRecord> {
    const client = await this.prisma.openBulkConnection('lis-export');
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      let after: string | null = null;
      for (;;) {
        type ExportRow = Omit<ImageryRecord, 'photo'> & { photo: ImageryRecord['photo'] | null };
        const { rows }: { rows: ExportRow[] } = await client.query<ExportRow>(EXPORT_PAGE, [
          filter.source ?? null,
          after,
          pageSize,
        ]);
        for (const { photo, ...record } of rows) yield photo ? { ...record, photo } : record;
        if (rows.length < pageSize) break;
        after = rows[rows.length - 1].id;
      }
      await client.query('COMMIT');
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  // Full records for ids, in the order given (ids not found are left out).
  @GenerateSql({ params: () => [[SAMPLE_UUID, SAMPLE_UUID_2]] })
  async findByIds(ids: string[]): Promise<ImageryRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.$queryRaw<ImageryRecord[]>(
      Prisma.sql`SELECT ${Prisma.raw(RECORD_COLUMNS)} FROM imagery WHERE id = ANY(${ids}::uuid[])`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is ImageryRecord => r !== undefined);
  }

  // Only a record of the given source (demo images are drawn for the demo seed alone).
  @GenerateSql({ params: () => [SAMPLE_UUID, SAMPLE_SOURCE] })
  async findForDemoImage(
    id: string,
    source: string,
  ): Promise<{ address: string; capturedAt: string; heading: number | null } | null> {
    const rows = await this.prisma.$queryRaw<Array<{ address: string; capturedAt: string; heading: number | null }>>`
      SELECT address, to_char(captured_at, 'YYYY-MM-DD') AS "capturedAt", heading FROM imagery
      WHERE id = ${id}::uuid AND source = ${source}`;
    return rows[0] ?? null;
  }

  // Whether any record has another source than the one given (none included): three probes of
  // imagery_source_idx (below it, above it, no source), each ending at its first row.
  @GenerateSql({ params: () => [SAMPLE_SOURCE], answers: [[{ others: false }]] })
  async hasRecordsOutside(source: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<Array<{ others: boolean }>>(recordsOutsideSql(source));
    return rows[0].others;
  }

  // How many records a source has, and how many of them are photos (rows of photos, same id).
  @GenerateSql({ params: () => [SAMPLE_SOURCE], answers: [[{ records: 2, photos: 1 }]] })
  async countSource(source: string): Promise<SourceCount> {
    const rows = await this.prisma.$queryRaw<SourceCount[]>`
      SELECT count(*)::int AS records,
             (SELECT count(*) FROM imagery i JOIN photos p ON p.id = i.id WHERE i.source = ${source}::text)::int AS photos
      FROM imagery WHERE source = ${source}::text`;
    return rows[0];
  }

  // Deletes up to `limit` records of a source, and their photos rows, in one statement (one
  // transaction): a record and its photo details go together. The imagery triggers keep the words,
  // the vocabulary and the coverage cells' change list as for any delete.
  @GenerateSql({ params: () => [SAMPLE_SOURCE, 5000], answers: [[{ records: 2, photos: 1 }]] })
  async deleteSourceBatch(source: string, limit: number): Promise<SourceCount> {
    if (this.prisma.imageryDistributed)
      throw new Error('deleting a source is not supported where imagery is distributed (Citus)');
    const rows = await this.prisma.$queryRaw<SourceCount[]>`
      WITH batch AS (SELECT id FROM imagery WHERE source = ${source}::text LIMIT ${limit}::int),
           gone AS (DELETE FROM imagery i USING batch b WHERE i.id = b.id RETURNING i.id),
           photos_gone AS (DELETE FROM photos p USING gone g WHERE p.id = g.id RETURNING p.id)
      SELECT (SELECT count(*) FROM gone)::int AS records, (SELECT count(*) FROM photos_gone)::int AS photos`;
    return rows[0];
  }

  @GenerateSql()
  async analyze(): Promise<void> {
    await this.prisma.$executeRaw`ANALYZE imagery`;
  }

  // One row is enough to know; counting a large catalogue at every start would not be free.
  @GenerateSql()
  async isEmpty(): Promise<boolean> {
    return (await this.prisma.imagery.findFirst({ select: { id: true } })) === null;
  }
}
