import { ArgumentMetadata } from '@nestjs/common';
import { RequestException } from '../../src/common/app-exception';
import { AppValidationPipe } from '../../src/common/validation.pipe';
import { SearchRequestDto } from '../../src/search/search.dto';

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
    [JSON.parse('{"query":"a","__proto__":{"isAdmin":true}}'), '__proto__'],
    [{ query: 'a', constructor: 1 }, 'constructor'],
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

  it.each([[null], [[]], [[{ query: 'a' }]], ['Vaduz'], [42], [true]])('rejects the non-object body %j', async (body) => {
    const e = await rejection(body);
    expect(e.message).toBe('Request body must be a JSON object');
  });
});
