import { Injectable } from '@nestjs/common';
import { GenerateSql, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import { StacSearch } from './stac-search-parameters';
import { collectionsSql, dataVersionSql, geometryProblemSql, itemSql, searchPageSql } from './stac.sql';

export interface StacItemRow {
  id: string;
  address: string;
  captured_at: string;
  /** NULL: a photo with no direction (it faces nothing). */
  heading: number | null;
  interactive: boolean;
  image_url: string;
  source: string | null;
  lon: number;
  lat: number;
}

export interface StacPage {
  rows: StacItemRow[];
  /** All matches, counted up to MATCH_COUNT_CAP + 1. */
  matched: number;
}

export interface CollectionRow {
  id: string;
  count: number;
  west: number;
  south: number;
  east: number;
  north: number;
  first_capture: string;
  last_capture: string;
}

const SAMPLE_ID = '8f0a7bd4-4b7c-5d43-9a55-d0c2b3e1f0aa';
const sampleSearch = (over: Partial<StacSearch> = {}): StacSearch => ({
  dates: {},
  limit: 10,
  direction: 'desc',
  ...over,
});

@SqlSubject((db) => new StacRepository(db.prisma))
@Injectable()
export class StacRepository {
  constructor(private readonly prisma: PrismaService) {}

  @GenerateSql(
    { name: 'everything, newest first', params: () => [sampleSearch()] },
    {
      name: 'a bbox and a datetime interval, a later page',
      params: () => [
        sampleSearch({
          bbox: [9.5, 47.1, 9.55, 47.2],
          dates: { from: '2019-01-01', to: '2019-12-31' },
          cursor: { direction: 'desc', capturedAt: '2019-06-05', id: SAMPLE_ID },
        }),
      ],
    },
    {
      name: 'a polygon, ids and collections, oldest first',
      params: () => [
        sampleSearch({
          intersects: {
            type: 'Polygon',
            coordinates: [
              [
                [9.5, 47.1],
                [9.6, 47.1],
                [9.6, 47.2],
                [9.5, 47.1],
              ],
            ],
          },
          ids: [SAMPLE_ID],
          collections: ['unsourced', 'survey-2019'],
          direction: 'asc',
        }),
      ],
    },
    {
      name: 'a prev page (read backwards from its token)',
      params: () => [
        sampleSearch({ cursor: { direction: 'desc', capturedAt: '2019-06-05', id: SAMPLE_ID, before: true } }),
      ],
    },
    { name: 'a bbox across the antimeridian', params: () => [sampleSearch({ bbox: [179, -20, -179, -10] })] },
    {
      name: 'a CQL2 filter: interactive, a heading range, a collection, a datetime',
      params: () => [
        sampleSearch({
          filter: {
            op: 'and',
            args: [
              { op: '=', property: 'interactive', value: true },
              { op: '>=', property: 'view:azimuth', value: 90 },
              { op: 'not', arg: { op: '=', property: 'collection', value: 'unsourced' } },
              { op: '<', property: 'datetime', value: { timestamp: Date.UTC(2020, 0, 1, 12) } },
            ],
          },
        }),
      ],
    },
  )
  async searchPage(search: StacSearch): Promise<StacPage> {
    const rows = await this.prisma.rawQuery<StacItemRow & { matched: number }>(searchPageSql(search));
    const matched = rows[0]?.matched ?? 0;
    return { matched, rows: rows.filter((r) => r.id !== null).map(({ matched: _, ...row }) => row) };
  }

  @GenerateSql({ params: () => [SAMPLE_ID] })
  async item(id: string): Promise<StacItemRow | undefined> {
    const [row] = await this.prisma.rawQuery<StacItemRow>(itemSql(id));
    return row;
  }

  // Null when PostGIS can test the geometry; otherwise why not.
  @GenerateSql({
    params: () => [
      sampleSearch({
        intersects: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
              [0, 0],
            ],
          ],
        },
      }),
    ],
  })
  async geometryProblem(search: StacSearch): Promise<string | null> {
    const [row] = await this.prisma.rawQuery<{ problem: string | null }>(geometryProblemSql(search));
    return row?.problem ?? null;
  }

  @GenerateSql()
  async collections(): Promise<CollectionRow[]> {
    return this.prisma.rawQuery<CollectionRow>(collectionsSql);
  }

  @GenerateSql({ answers: [[{ version: '1' }]] })
  async dataVersion(): Promise<string> {
    const [row] = await this.prisma.rawQuery<{ version: string }>(dataVersionSql);
    return row?.version ?? '0';
  }
}
