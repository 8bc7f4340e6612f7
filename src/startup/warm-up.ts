import { INestApplication, Logger } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ApiKeyService } from '../api-key/api-key.service';
import { SearchRequestDto } from '../search/dto/search-request.dto';
import { SearchService } from '../search/search.service';

// Searches of each kind the first users send: a place's name, a misspelt one (the trigram steps), an
// address with a number, coordinates, and one with `include`. Their words need not be in the
// catalogue: what is warmed is the work every search of that kind does, not a cached answer.
const WARM_SEARCHES: object[] = [
  { query: 'Springfield' },
  { query: 'Sprngfeld' },
  { query: '1600 Pennsylvania Avenue, Washington' },
  { query: '40.7128,-74.0060' },
  { query: 'Main Street', include: ['total', 'match', 'place'] },
];
// A start is never held up longer than this by its warm-up (a slow or absent database).
const WARM_UP_BUDGET_MS = 15_000;

// What the first request after a start would otherwise pay for, paid before the server listens (so
// before /health/ready can answer): the first connection of the pool and its backend's caches (the
// catalogue, PostGIS loaded into it, each statement's first parse), the key lookup, and the code paths
// of a search of each kind (on the built-in database, PostgreSQL's own compiled code too). A failure
// is no reason not to start: the searches then pay for it, as they would have.
export async function warmUp(app: INestApplication, log: Logger): Promise<void> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), WARM_UP_BUDGET_MS);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([searches(app), budget]);
    if (outcome === 'late') log.warn(`Warm-up cut short after ${WARM_UP_BUDGET_MS} ms; the first searches finish it`);
    else log.log(`Warmed up in ${Date.now() - started} ms (a search of each kind)`);
  } catch (error) {
    log.warn(`Warm-up failed (the first searches pay for it instead): ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

async function searches(app: INestApplication): Promise<'done'> {
  // A key no one has: looked up, refused (refusals are never remembered).
  await app
    .get(ApiKeyService)
    .authenticate('lis_warm-up-0000000000000000000000000000000000000')
    .catch(() => undefined);
  const search = app.get(SearchService);
  for (const body of WARM_SEARCHES) await search.search(plainToInstance(SearchRequestDto, body));
  return 'done';
}
