// What our service sends to the database for each benchmark request: the real SearchService on a
// real SearchRepository whose PrismaService stand-in records every statement before running it.
import { PhotoIncludes } from '../../src/photos/photo-includes';
import { PhotosRepository } from '../../src/photos/photos.repository';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { Prisma } from '@prisma/client';
import { Pool } from 'pg';
import { loadConfig } from '../../src/config/app-config';
import { imageryIsDistributed } from '../../src/database/citus-layout';
import { PrismaService } from '../../src/database/prisma.service';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import { SearchRepository } from '../../src/search/search.repository';
import { TextSearchPipeline } from '../../src/search/pipeline/text-search.pipeline';
import { RecordRepository } from '../../src/search/record.repository';
import { RecordHistory } from '../../src/search/answer/record-history';
import { SearchService } from '../../src/search/search.service';
import { vocabularySql } from '../../src/search/sql/vocabulary.sql';
import { PlaceMatcherService } from '../../src/search/place-matching/place-matcher.service';
import { PlaceMatchingRepository } from '../../src/search/place-matching/place-matching.repository';
import { LocalizedNamesRepository } from '../../src/search/language/localized-names.repository';
import { RecordPlaces } from '../../src/search/answer/record-places';
import type { SearchBody } from './bench-queries';

export interface Statement {
  text: string;
  values: unknown[];
}

export interface RecordedRequest {
  /** The exact JSON body sent: the ceiling server finds the statements by it. */
  body: string;
  statements: Statement[];
  /** Records in the service's response. */
  results: number;
}

// As the global ValidationPipe builds the DTO (whitelist, no implicit conversion); a body it would
// refuse is a bug in the query classes.
export async function toRequestDto(body: SearchBody): Promise<SearchRequestDto> {
  const dto = plainToInstance(SearchRequestDto, body, { enableImplicitConversion: false });
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0)
    throw new Error(
      `invalid bench body ${JSON.stringify(body)}: ${errors.map((e) => Object.values(e.constraints ?? {})).join('; ')}`,
    );
  return dto;
}

// The vocabulary is read at most once a minute per process, not per request: a lane's first search
// reads it, and replaying that read for every request of the body it came with (the lanes' first
// three bodies of each class) cost the ceiling a 35,000-row statement per such request, and put it
// in explain/<class>.txt as if each search sent it.
const VOCABULARY_READ = vocabularySql().text;

// Recorded in a few lanes at once (each its own service and record), results in body order.
export async function recordStatements(
  url: string,
  poolSize: number,
  bodies: SearchBody[],
  lanes = 3,
): Promise<RecordedRequest[]> {
  const config = loadConfig({ DATABASE_URL: url, DB_POOL_SIZE: String(poolSize) });
  const pool = new Pool({ connectionString: url, max: lanes, application_name: 'lis-bench-recorder' });
  // An idle connection's backend ended (a crash elsewhere in the cluster) emits 'error' on the pool:
  // unheard, it would end the bench; the query in flight fails on its own.
  pool.on('error', () => undefined);
  const out: RecordedRequest[] = new Array(bodies.length);
  let next = 0;
  // As the server reads it at start: on a Citus coordinator with imagery distributed, the statements
  // our service sends there are their Citus forms (recording the single-node ones fails to plan).
  const imageryDistributed = await imageryIsDistributed(pool);
  const lane = async () => {
    let recorded: Statement[] = [];
    const rawQuery = async (sql: Prisma.Sql) => {
      if (sql.text !== VOCABULARY_READ) recorded.push({ text: sql.text, values: sql.values });
      return (await pool.query(sql.text, sql.values as unknown[])).rows;
    };
    // Best-effort statements run in full here: the ceiling replays what our server would send.
    const prisma = { rawQuery, bestEffortQuery: rawQuery, imageryDistributed } as unknown as PrismaService;
    const places = new PlaceMatchingRepository(prisma);
    const repository = new SearchRepository(prisma);
    const service = new SearchService(
      repository,
      new TextSearchPipeline(repository, new PlaceMatcherService(places)),
      new RecordPlaces(places),
      new RecordHistory(new RecordRepository(prisma), config),
      new PhotoIncludes(new PhotosRepository(prisma)),
      new LocalizedNamesRepository(prisma),
      config,
    );
    for (let i = next++; i < bodies.length; i = next++) {
      recorded = [];
      const response = await service.search(await toRequestDto(bodies[i]));
      // Values must survive the trip to the ceiling server as JSON, unchanged.
      const statements = JSON.parse(JSON.stringify(recorded)) as Statement[];
      out[i] = { body: JSON.stringify(bodies[i]), statements, results: response.data.length };
    }
  };
  try {
    await Promise.all(Array.from({ length: lanes }, lane));
  } finally {
    await pool.end();
  }
  return out;
}
