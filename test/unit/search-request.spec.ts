import { ArgumentMetadata } from '@nestjs/common';
import { RequestException } from '../../src/common/app-exception';
import { AppValidationPipe } from '../../src/common/validation.pipe';
import { INCLUDES } from '../../src/search/dto/search-filters.dto';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';

const pipe = new AppValidationPipe();
const meta: ArgumentMetadata = { type: 'body', metatype: SearchRequestDto };
const validate = (body: unknown) => pipe.transform(body, meta) as Promise<SearchRequestDto>;

async function rejection(body: unknown): Promise<RequestException> {
  try {
    await validate(body);
  } catch (e) {
    expect(e).toBeInstanceOf(RequestException);
    return e as RequestException;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe('search request validation', () => {
  it('applies defaults and trims the query', async () => {
    const dto = await validate({ query: '  Vaduz  ' });
    expect(dto).toBeInstanceOf(SearchRequestDto);
    expect({ ...dto }).toEqual({ query: 'Vaduz', limit: 10, page: 1 });
  });

  it('accepts the bounds', async () => {
    await expect(validate({ query: 'a', limit: 100, page: 100 })).resolves.toMatchObject({ limit: 100, page: 100 });
    await expect(validate({ query: 'x'.repeat(256), limit: 1, page: 1 })).resolves.toBeDefined();
  });

  it('turns control characters into spaces', async () => {
    expect((await validate({ query: 'Vaduz\u0000Herrengasse' })).query).toBe('Vaduz Herrengasse');
  });

  it.each([
    ['a tab', '\t'],
    ['a line break', '\r\n'],
    ['a no-break space', '\u00a0'],
    ['a narrow no-break space', '\u202f'],
    ['an em space', '\u2003'],
    ['an ideographic space', '\u3000'],
    ['a line separator', '\u2028'],
    ['a zero width space', '\u200b'],
    ['a word joiner', '\u2060'],
  ])('turns %s into a space', async (_name, space) => {
    expect((await validate({ query: `${space}Herrengasse${space}35,${space}${space}Vaduz${space}` })).query).toBe(
      'Herrengasse 35, Vaduz',
    );
  });

  it.each([
    [{}, 'query'],
    [{ query: '' }, 'query'],
    [{ query: '   ' }, 'query'],
    [{ query: 'x'.repeat(257) }, 'query'],
    [{ query: 42 }, 'query'],
    [{ query: null }, 'query'],
    [{ query: ['a'] }, 'query'],
    [{ query: 'a', limit: 0 }, 'limit'],
    [{ query: 'a', limit: 101 }, 'limit'],
    [{ query: 'a', limit: '10' }, 'limit'],
    [{ query: 'a', limit: 1.5 }, 'limit'],
    [{ query: 'a', limit: true }, 'limit'],
    [{ query: 'a', limit: null }, 'limit'],
    [{ query: 'a', limit: [10] }, 'limit'],
    [{ query: 'a', limit: { n: 1 } }, 'limit'],
    [{ query: 'a', page: 0 }, 'page'],
    [{ query: 'a', page: -1 }, 'page'],
    [{ query: 'a', page: '2' }, 'page'],
    [{ query: 'a', page: null }, 'page'],
    [{ query: 'a', page: 1e300 }, 'page'],
    [{ query: 'a', extra: 1 }, 'extra'],
  ])('rejects %j naming %s', async (body, field) => {
    const e = await rejection(body);
    expect(e.status).toBe(400);
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details?.map((d) => d.field)).toContain(field);
  });

  it('explains the limit rule', async () => {
    expect((await rejection({ query: 'a', limit: 0 })).message).toBe('limit must be an integer between 1 and 100');
  });

  it('refuses deep paging past 10,000 results', async () => {
    await expect(validate({ query: 'a', limit: 100, page: 100 })).resolves.toBeDefined();
    const e = await rejection({ query: 'a', limit: 100, page: 101 });
    expect(e.message).toMatch(/page \* limit must be at most 10000/);
    await expect(validate({ query: 'a', page: 1000 })).resolves.toBeDefined();
    await rejection({ query: 'a', page: 1001 });
  });

  it('accepts every filter, sort and include, and applies nested defaults', async () => {
    const dto = await validate({
      query: 'Vaduz',
      near: { lat: 47.14, lon: 9.52 },
      bbox: [170, -20, -170, -10],
      captured_after: '2020-02-29',
      captured_before: '2020-02-29',
      interactive: true,
      heading: { min: 350, max: 10 },
      looking_at: { lat: 47.14, lon: 9.52 },
      sort: 'newest',
      include: ['captured_at', 'heading', 'distance_m', 'score', 'total', 'interpretation'],
    });
    expect(dto.near).toEqual({ lat: 47.14, lon: 9.52, radius_m: 250 });
    expect(dto.looking_at).toEqual({ lat: 47.14, lon: 9.52, fov_deg: 90, radius_m: 250 });
    expect(dto.heading).toEqual({ min: 350, max: 10 });
  });

  it.each([[{ near: { lat: 0, lon: 0 } }], [{ bbox: [-1, -1, 1, 1] }], [{ looking_at: { lat: 0, lon: 0 } }]])(
    'lets %j stand without a query',
    async (body) => {
      await expect(validate(body)).resolves.toBeDefined();
    },
  );

  it('asks for a query when no place is given another way', async () => {
    expect((await rejection({ interactive: true })).message).toBe(
      'query is required unless address, near, bbox or looking_at is given',
    );
  });

  it.each([
    [{ query: 'a', near: null }, 'near', 'near must be an object { lat, lon, radius_m? }'],
    [{ query: 'a', near: 'Vaduz' }, 'near', 'near must be an object { lat, lon, radius_m? }'],
    [{ query: 'a', near: { lat: 91, lon: 0 } }, 'near.lat', 'near.lat must be a number between -90 and 90'],
    [{ query: 'a', near: { lat: 0, lon: -181 } }, 'near.lon', 'near.lon must be a number between -180 and 180'],
    [{ query: 'a', near: { lat: '0', lon: 0 } }, 'near.lat', 'near.lat must be a number between -90 and 90'],
    [{ query: 'a', near: { lon: 0 } }, 'near.lat', 'near.lat must be a number between -90 and 90'],
    [
      { query: 'a', near: { lat: 0, lon: 0, radius_m: 0.5 } },
      'near.radius_m',
      'near.radius_m must be a number of metres between 1 and 50000',
    ],
    [
      { query: 'a', near: { lat: 0, lon: 0, radius_m: 50_001 } },
      'near.radius_m',
      'near.radius_m must be a number of metres between 1 and 50000',
    ],
    [{ query: 'a', near: { lat: 0, lon: 0, radius: 5 } }, 'near.radius', 'property radius should not exist'],
    [{ query: 'a', bbox: [1, 2, 3] }, 'bbox', 'bbox must be an array of 4 numbers [minLon, minLat, maxLon, maxLat]'],
    [{ query: 'a', bbox: '1,2,3,4' }, 'bbox', 'bbox must be an array of 4 numbers [minLon, minLat, maxLon, maxLat]'],
    [
      { query: 'a', bbox: [1, 2, '3', 4] },
      'bbox',
      'bbox must be an array of 4 numbers [minLon, minLat, maxLon, maxLat]',
    ],
    [{ query: 'a', bbox: [-181, 2, 3, 4] }, 'bbox', 'bbox longitudes must be between -180 and 180'],
    [{ query: 'a', bbox: [1, -91, 3, 4] }, 'bbox', 'bbox latitudes must be between -90 and 90'],
    [{ query: 'a', bbox: [1, 4, 3, 4] }, 'bbox', 'bbox minLat must be less than maxLat'],
    [{ query: 'a', bbox: [3, 2, 3, 4] }, 'bbox', expect.stringMatching(/^bbox minLon must differ from maxLon/)],
    [
      { query: 'a', captured_after: '2020-02-30' },
      'captured_after',
      'captured_after must be a calendar date YYYY-MM-DD',
    ],
    [
      { query: 'a', captured_after: '2020-02-03T00:00:00Z' },
      'captured_after',
      'captured_after must be a calendar date YYYY-MM-DD',
    ],
    [
      { query: 'a', captured_before: 20200101 },
      'captured_before',
      'captured_before must be a calendar date YYYY-MM-DD',
    ],
    [
      { query: 'a', captured_after: '2021-01-01', captured_before: '2020-12-31' },
      'captured_before',
      'captured_before must not be earlier than captured_after',
    ],
    [{ query: 'a', interactive: 'true' }, 'interactive', 'interactive must be true or false'],
    [{ query: 'a', interactive: null }, 'interactive', 'interactive must be true or false'],
    [{ query: 'a', facing: 'north' }, 'facing', 'facing must be one of N, NE, E, SE, S, SW, W, NW'],
    [{ query: 'a', facing: 'N', heading: { min: 0, max: 10 } }, 'heading', 'give either facing or heading, not both'],
    [{ query: 'a', heading: 90 }, 'heading', 'heading must be an object { min, max } in degrees'],
    [
      { query: 'a', heading: { min: -1, max: 10 } },
      'heading.min',
      'heading.min must be a number of degrees between 0 and 360',
    ],
    [{ query: 'a', heading: { min: 0 } }, 'heading.max', 'heading.max must be a number of degrees between 0 and 360'],
    [
      { looking_at: { lat: 0, lon: 0, fov_deg: 0 } },
      'looking_at.fov_deg',
      'looking_at.fov_deg must be a number of degrees between 1 and 360',
    ],
    [
      { looking_at: { lat: 0, lon: 0, radius_m: 1e6 } },
      'looking_at.radius_m',
      'looking_at.radius_m must be a number of metres between 1 and 50000',
    ],
    [{ query: 'a', sort: 'closest' }, 'sort', 'sort must be one of relevance, distance, newest, oldest'],
    [
      { query: 'a', include: 'score' },
      'include',
      expect.stringMatching(/^include must be an array of names from: captured_at, heading/),
    ],
    [
      { query: 'a', include: ['score', 'address', 7] },
      'include',
      expect.stringMatching(/^include has unknown names "address", 7; allowed: /),
    ],
    [
      { query: 'a', include: ['total', 'total'] },
      'include',
      'include names "total" more than once; give each name at most once',
    ],
    [
      { query: 'a', include: ['total', 'total', 'total'] },
      'include',
      'include names "total" more than once; give each name at most once',
    ],
    [
      { query: 'a', include: ['score', 'total', 'score', 'total'] },
      'include',
      'include names "score", "total" more than once; give each name at most once',
    ],
    [
      { query: 'a', include: Array(2 * INCLUDES.length + 1).fill('score') },
      'include',
      expect.stringMatching(/^include must be an array of names from: .*, each at most once$/),
    ],
  ])('rejects %j naming %s', async (body, field, message) => {
    const e = await rejection(body);
    expect(e.status).toBe(400);
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details?.[0]).toEqual({ field, message });
  });

  it.each([[null], [[]], [[{ query: 'a' }]], ['Vaduz'], [42], [true]])(
    'rejects the non-object body %j',
    async (body) => {
      const e = await rejection(body);
      expect(e.message).toBe('Request body must be a JSON object');
    },
  );
});
