import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service';
import { ImageryRecord } from './imagery-feature';

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

@Injectable()
export class ImageryRepository {
  constructor(private readonly prisma: PrismaService) {}

  // One set-based upsert per batch (raw SQL: Prisma cannot write PostGIS geometry or unnest arrays).
  // Unchanged rows are skipped by the WHERE, so re-importing a file rewrites nothing.
  async upsertBatch(records: ImageryRecord[], source: string | null): Promise<UpsertCounts> {
    if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
    const rows = await this.prisma.$queryRaw<Array<{ inserted: boolean }>>`
      INSERT INTO imagery AS t (id, address, captured_at, heading, interactive, image_url, location, source)
      SELECT u.id, u.address, u.captured_at, u.heading, u.interactive, u.image_url,
             ST_SetSRID(ST_MakePoint(u.lon, u.lat), 4326), ${source}
      FROM unnest(
        ${records.map((r) => r.id)}::uuid[], ${records.map((r) => r.address)}::text[],
        ${records.map((r) => r.capturedAt)}::date[], ${records.map((r) => r.heading)}::float8[],
        ${records.map((r) => r.interactive)}::boolean[], ${records.map((r) => r.imageUrl)}::text[],
        ${records.map((r) => r.lon)}::float8[], ${records.map((r) => r.lat)}::float8[]
      ) AS u(id, address, captured_at, heading, interactive, image_url, lon, lat)
      ON CONFLICT (id) DO UPDATE SET
        address = EXCLUDED.address, captured_at = EXCLUDED.captured_at, heading = EXCLUDED.heading,
        interactive = EXCLUDED.interactive, image_url = EXCLUDED.image_url, location = EXCLUDED.location,
        source = EXCLUDED.source, updated_at = now()
      WHERE (t.address, t.captured_at, t.heading, t.interactive, t.image_url, t.source)
              IS DISTINCT FROM (EXCLUDED.address, EXCLUDED.captured_at, EXCLUDED.heading, EXCLUDED.interactive,
                                EXCLUDED.image_url, EXCLUDED.source)
         OR NOT ST_Equals(t.location, EXCLUDED.location)
      RETURNING (xmax = 0) AS inserted`;
    const inserted = rows.filter((r) => r.inserted).length;
    const updated = rows.length - inserted;
    return { inserted, updated, unchanged: records.length - rows.length };
  }

  async findForDemoImage(id: string): Promise<{ address: string; capturedAt: string; heading: number } | null> {
    const rows = await this.prisma.$queryRaw<Array<{ address: string; capturedAt: string; heading: number }>>`
      SELECT address, to_char(captured_at, 'YYYY-MM-DD') AS "capturedAt", heading FROM imagery WHERE id = ${id}::uuid`;
    return rows[0] ?? null;
  }

  count(): Promise<number> {
    return this.prisma.imagery.count();
  }
}
