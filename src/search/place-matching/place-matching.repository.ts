import type { PlaceHierarchy } from '../../places/place-hierarchy';
import { Injectable } from '@nestjs/common';
import { GenerateSql, SAMPLE_UUID, SAMPLE_UUID_2, SqlSubject } from '../../database/generate-sql';
import { PrismaService } from '../../database/prisma.service';
import { SAMPLE_PAGE, samplePlan, sampleText } from '../sql/search-sql.samples';
import type { SearchPlan } from '../planning/search-planner';
import type { PageWindow } from '../paging/search-limits';
import { TextQuery } from '../query/text-query';
import { CategoryArea, categoryImagerySql } from '../sql/category-search.sql';
import { categoryPage, CategoryImagery, CategoryRow } from './category-imagery';
import { PlaceCandidate, StreetAddressCandidate } from './place-ranking';
import {
  addressTownSql,
  placeCandidatesSql,
  recordPlacesSql,
  regionPlaceSql,
  similarPlacesSql,
  streetAddressesSql,
} from '../sql/place-candidates.sql';

// Reads the gazetteer for search: the places a query may mean, and the places records point at.
@SqlSubject((db) => new PlaceMatchingRepository(db.prisma))
@Injectable()
export class PlaceMatchingRepository {
  static placeCandidatesSql = placeCandidatesSql;
  static similarPlacesSql = similarPlacesSql;
  static recordPlacesSql = recordPlacesSql;
  static regionPlaceSql = regionPlaceSql;
  static streetAddressesSql = streetAddressesSql;
  static categoryImagerySql = categoryImagerySql;
  static addressTownSql = addressTownSql;

  constructor(private readonly prisma: PrismaService) {}

  @GenerateSql(
    { params: () => [sampleText('San Fr'), null] },
    { name: 'in a region', params: () => [sampleText('Springfield'), 'US-IL'] },
    { name: 'the prefix split off', params: () => [sampleText('6th Street'), null, true] },
  )
  candidates(query: TextQuery, region: string | null, splitPrefix = false): Promise<PlaceCandidate[]> {
    return this.prisma.rawQuery<PlaceCandidate>(placeCandidatesSql(query, region, splitPrefix));
  }

  @GenerateSql({ params: () => ['Sna Francisco', null] })
  // Best effort: a query of common trigrams ("... Street, ...") compares millions of names at ten
  // million records; past the search's fallback budget it finds no misspelt place.
  async similar(text: string, region: string | null): Promise<PlaceCandidate[]> {
    return (await this.prisma.bestEffortQuery<PlaceCandidate>(similarPlacesSql(text, region))) ?? [];
  }

  @GenerateSql({ params: () => [sampleText('Herrengasse Vaduz'), 'LI'] })
  streetAddresses(query: TextQuery, region: string | null): Promise<StreetAddressCandidate[]> {
    return this.prisma.rawQuery<StreetAddressCandidate>(streetAddressesSql(query, region));
  }

  @GenerateSql({ params: () => [sampleText('Maldun'), 'LI'] })
  async addressTown(query: TextQuery, region: string | null): Promise<AddressTown | null> {
    return (await this.prisma.rawQuery<AddressTown>(addressTownSql(query, region)))[0] ?? null;
  }

  @GenerateSql({ params: () => [SAMPLE_UUID] })
  async regionPlace(placeId: string): Promise<PlaceCandidate | null> {
    return (await this.prisma.rawQuery<PlaceCandidate>(regionPlaceSql(placeId)))[0] ?? null;
  }

  // The imagery at the pois of a category (see category-search.sql.ts), nearest poi first.
  @GenerateSql(
    {
      name: 'a category anywhere in a country',
      params: () => [['amenity=restaurant'], { around: null, country: 'LI' }, SAMPLE_PAGE, samplePlan({})],
    },
    {
      name: 'a category around a place',
      params: () => [
        ['tourism=hotel', 'tourism=motel'],
        { around: { lat: 47.141, lon: 9.5215, radiusM: 10_000 }, country: null },
        SAMPLE_PAGE,
        samplePlan({}),
      ],
    },
    {
      name: 'imagery distributed (Citus): the pois joined with imagery',
      sql: () =>
        categoryImagerySql(['amenity=restaurant'], { around: null, country: 'LI' }, SAMPLE_PAGE, samplePlan({}), true),
    },
  )
  async categoryImagery(
    tags: string[],
    area: CategoryArea,
    window: PageWindow,
    plan: SearchPlan,
  ): Promise<CategoryImagery> {
    const sql = categoryImagerySql(tags, area, window, plan, this.prisma.imageryDistributed === true);
    return categoryPage(await this.prisma.rawQuery<CategoryRow>(sql), window);
  }

  @GenerateSql({ params: () => [[SAMPLE_UUID], [SAMPLE_UUID_2]] })
  recordPlaces(recordIds: string[], placeIds: string[]): Promise<RecordPlaceRow[]> {
    if (recordIds.length === 0) return Promise.resolve([]);
    return this.prisma.rawQuery<RecordPlaceRow>(recordPlacesSql(recordIds, placeIds));
  }
}

/** A town only addresses and pois name (addr:city), where they lie: see addressTownSql. */
export interface AddressTown {
  /** As the data spells it. */
  name: string;
  /** How many addresses and pois name it (at most ADDRESS_TOWN_CAP). */
  places: number;
  lat: number;
  lon: number;
}

export interface RecordPlaceRow {
  recordId: string;
  id: string;
  kind: string;
  label: string;
  lat: number;
  lon: number;
  distance: number;
  bearing: number | null;
  hierarchy: PlaceHierarchy | null;
}
