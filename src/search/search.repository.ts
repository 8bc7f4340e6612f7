import { Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { PrismaService } from '../database/prisma.service';
import { TextQuery } from './search-query';

export interface SearchRow {
  id: string;
  address: string;
  capturedAt: string;
  heading: number;
  interactive: boolean;
  imageUrl: string;
  lon: number;
  lat: number;
  score: number;
}

export interface SearchPage {
  total: number;
  rows: SearchRow[];
}

export interface PageWindow {
  limit: number;
  offset: number;
}

// All imagery search SQL. Raw SQL because Prisma's query builder cannot express full-text,
// trigram or PostGIS operators; every value is a bound parameter.
@Injectable()
export class SearchRepository {
  constructor(private readonly prisma: PrismaService) {}

  searchFullText(query: TextQuery, window: PageWindow): Promise<SearchPage> {
    return this.run(SearchRepository.fullTextSql(query, window));
  }

  searchFuzzy(query: TextQuery, window: PageWindow): Promise<SearchPage> {
    return this.run(SearchRepository.fuzzySql(query, window));
  }

  // Full-text match on the generated tsvector (GIN index imagery_address_tsv_idx).
  static fullTextSql(query: TextQuery, window: PageWindow): Prisma.Sql {
    const norm = Prisma.sql`lis_normalize(${query.text})`;
    return pageSql(
      window,
      Prisma.sql`i.address_tsv @@ to_tsquery('simple', ${query.tsquery})`,
      Prisma.sql`similarity(i.address_norm, ${norm})
        + CASE WHEN i.address_norm = ${norm} THEN 2 ELSE 0 END
        + CASE WHEN starts_with(i.address_norm, ${norm}) THEN 0.5 ELSE 0 END
        + CASE WHEN i.address_tsv @@ to_tsquery('simple', ${query.tsqueryExact}) THEN 0.5 ELSE 0 END`,
    );
  }

  // Trigram word similarity for misspellings (GIN index imagery_address_norm_trgm_idx).
  static fuzzySql(query: TextQuery, window: PageWindow): Prisma.Sql {
    const norm = Prisma.sql`lis_normalize(${query.text})`;
    return pageSql(
      window,
      Prisma.sql`${norm} <% i.address_norm`,
      Prisma.sql`word_similarity(${norm}, i.address_norm) + similarity(i.address_norm, ${norm})`,
    );
  }

  // The request path reads through the least-privileged connection (DATABASE_READONLY_URL when set).
  private async run(sql: Prisma.Sql): Promise<SearchPage> {
    const rows = await this.prisma.reader.$queryRaw<Array<{ total: number } & Partial<SearchRow>>>(sql);
    const total = rows[0]?.total ?? 0;
    return { total, rows: rows.filter((r) => r.id !== null && r.id !== undefined) as SearchRow[] };
  }
}

// Score every match, count them, then fetch full rows only for the requested page. The outer
// LEFT JOIN keeps one row (with the total) even when the page is past the end.
function pageSql(window: PageWindow, where: Prisma.Sql, score: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH matches AS MATERIALIZED (
      SELECT i.id, (${score})::float8 AS score
      FROM imagery i
      WHERE ${where}
    )
    SELECT t.total, p.*
    FROM (SELECT count(*)::int AS total FROM matches) t
    LEFT JOIN LATERAL (
      SELECT i.id, i.address, to_char(i.captured_at, 'YYYY-MM-DD') AS "capturedAt", i.heading,
             i.interactive, i.image_url AS "imageUrl", ST_X(i.location) AS lon, ST_Y(i.location) AS lat, m.score
      FROM matches m JOIN imagery i ON i.id = m.id
      ORDER BY m.score DESC, m.id
      LIMIT ${window.limit} OFFSET ${window.offset}
    ) p ON true
    ORDER BY p.score DESC, p.id`;
}
