import { Injectable } from '@nestjs/common';
import { GenerateSql, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';

@SqlSubject((db) => new HealthRepository(db.prisma))
@Injectable()
export class HealthRepository {
  constructor(private readonly prisma: PrismaService) {}

  // Raw SQL: _prisma_migrations is bookkeeping, not part of the Prisma schema.
  @GenerateSql()
  async appliedMigrations(): Promise<Set<string>> {
    const rows = await this.prisma.$queryRaw<Array<{ migration_name: string }>>`
      SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    return new Set(rows.map((r) => r.migration_name));
  }
}
