import { Injectable } from '@nestjs/common';
import { GenerateSql, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import { encodeTile, FeatureRow } from './tile-encoding';
import { NO_MVT, TileAddress, tileSql, tileVersionSql } from './tiles.sql';

@SqlSubject((db) => new TilesRepository(db.prisma))
@Injectable()
export class TilesRepository {
  // Set once the database has said it has no ST_AsMVT.
  private encodeHere = false;

  constructor(private readonly prisma: PrismaService) {}

  // The map's data version (map_data_version), raised by every import that changed what tiles show.
  @GenerateSql({ answers: [[{ version: '1' }]] })
  async dataVersion(): Promise<string> {
    const [row] = await this.prisma.rawQuery<{ version: string }>(tileVersionSql);
    return row.version;
  }

  // One tile, encoded by PostGIS (an empty buffer when nothing lies in it).
  @GenerateSql(
    {
      name: 'zoom 8: simplified map layers, coverage cells',
      params: () => [{ z: 8, x: 134, y: 89 }],
      answers: [[{ mvt: Buffer.alloc(0) }]],
    },
    {
      name: 'zoom 14: map layers, pois, sequences, coverage cells',
      params: () => [{ z: 14, x: 8625, y: 5753 }],
      answers: [[{ mvt: Buffer.alloc(0) }]],
    },
    {
      name: 'zoom 16: one point per cell, sequences',
      params: () => [{ z: 16, x: 34501, y: 23013 }],
      answers: [[{ mvt: Buffer.alloc(0) }]],
    },
  )
  async tile(address: TileAddress): Promise<Buffer> {
    if (this.encodeHere) return encodeTile(await this.tileFeatures(address));
    try {
      const [row] = await this.prisma.rawQuery<{ mvt: Buffer }>(tileSql(address));
      return row.mvt;
    } catch (error) {
      if (!NO_MVT.test((error as Error).message ?? '')) throw error;
      // A PostGIS without protobuf-c (the built-in database's): from now on encoded here.
      this.encodeHere = true;
      return encodeTile(await this.tileFeatures(address));
    }
  }

  // The same tile's features, for a database that cannot encode them (tile-encoding.ts).
  @GenerateSql({
    name: 'zoom 16: the features of every layer, in tile coordinates',
    params: () => [{ z: 16, x: 34501, y: 23013 }],
    answers: [[]],
  })
  async tileFeatures(address: TileAddress): Promise<FeatureRow[]> {
    return this.prisma.rawQuery<FeatureRow>(tileSql(address, 'rows'));
  }
}
