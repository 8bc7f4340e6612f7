import { Injectable } from '@nestjs/common';
import { GenerateSql, SAMPLE_SOURCE, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import { MapGeometrySession } from './map-geometry-session';

export interface CoverageRefresh {
  /** Whether every cell was rebuilt (else only those of the touched locations were recomputed). */
  rebuilt: boolean;
  /** Cells written: every cell of a rebuild, the cells changed by a recomputation. */
  cells: number;
}

// The upkeep of the map's tables (docs/map-tiles.md): an OpenStreetMap import's map features, the
// coverage cells rebuilt after an imagery import, and the data version in every tile's ETag.
@SqlSubject((db) => new MapDataRepository(db.prisma))
@Injectable()
export class MapDataRepository {
  constructor(private readonly prisma: PrismaService) {}

  // A connection of its own for an OpenStreetMap import's map features (staged while the file is read).
  @GenerateSql({ params: () => [SAMPLE_SOURCE] })
  async openGeometrySession(source: string): Promise<MapGeometrySession> {
    return MapGeometrySession.open(await this.prisma.openBulkConnection('lis-map-geometry'), source);
  }

  // After an imagery import: recomputes the coverage cells of the locations imports touched since the
  // last refresh (or rebuilds them all when that is cheaper, after a TRUNCATE or a first load) and raises
  // the data version; nothing when nothing was touched (lis_update_coverage). Returns whether it rebuilt
  // and the cells written. How and when: docs/map-tiles.md.
  @GenerateSql({ answers: [[{ rebuilt: false, cells: 3 }]] })
  async refreshCoverage(): Promise<CoverageRefresh> {
    const [row] = await this.prisma.bulkQuery<CoverageRefresh>(
      'lis-map-coverage',
      'SELECT rebuilt, cells::int AS cells FROM lis_update_coverage()',
      [],
    );
    return row;
  }

  // Rebuilds every coverage cell from the imagery and raises the data version (lis_refresh_coverage);
  // returns the number of cells. Its cost and how it swaps the new cells in: docs/map-tiles.md.
  @GenerateSql({ answers: [[{ cells: 1 }]] })
  async rebuildCoverage(): Promise<number> {
    const [row] = await this.prisma.bulkQuery<{ cells: number }>(
      'lis-map-coverage',
      'SELECT lis_refresh_coverage()::int AS cells',
      [],
    );
    return row.cells;
  }

  // After an import changed places or map features: every tile's ETag changes.
  @GenerateSql({ answers: [[{ version: 2 }]] })
  async dataChanged(): Promise<number> {
    const [row] = await this.prisma.bulkQuery<{ version: number }>(
      'lis-map-version',
      'SELECT lis_map_data_changed()::int AS version',
      [],
    );
    return row.version;
  }
}
