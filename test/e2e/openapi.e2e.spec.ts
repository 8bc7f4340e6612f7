import { NestExpressApplication } from '@nestjs/platform-express';
import { getMetadataStorage } from 'class-validator';
import { HeadingRangeDto, LookingAtDto, NearDto } from '../../src/search/search-filters.dto';
import { SearchRequestDto } from '../../src/search/search.dto';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { createKey, startApp } from '../helpers/test-app';

const ERROR_CODES_BY_STATUS: Record<string, string[]> = {
  '400': ['INVALID_REQUEST', 'MALFORMED_JSON', 'INVALID_COORDINATES', 'INVALID_PLUS_CODE', 'INVALID_SORT'],
  '401': ['MISSING_API_KEY', 'INVALID_API_KEY'],
  '408': ['REQUEST_TIMEOUT'],
  '413': ['PAYLOAD_TOO_LARGE'],
  '415': ['UNSUPPORTED_MEDIA_TYPE'],
  '429': ['RATE_LIMITED'],
  '431': ['HEADERS_TOO_LARGE'],
  '500': ['INTERNAL_ERROR'],
  '503': ['DATABASE_UNAVAILABLE'],
};

describe('OpenAPI document and Swagger UI', () => {
  let app: NestExpressApplication;
  let contract: ContractProxy;
  let doc: any;

  beforeAll(async () => {
    app = await startApp();
    contract = await startContractProxy(app);
    // Not part of the API surface it describes, so fetched straight from the app.
    doc = (await contract.direct.get('/openapi.json').expect(200).expect('content-type', /application\/json/)).body;
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(() => contract.close());

  const schema = (name: string) => doc.components.schemas[name];

  it('is OpenAPI 3 with the x-api-key security scheme on POST /search', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes['x-api-key']).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
    expect(doc.paths['/search'].post.security).toEqual([{ 'x-api-key': [] }]);
    expect(Object.keys(doc.paths).sort()).toEqual(['/demo-images/{file}', '/health/live', '/health/ready', '/metrics', '/search']);
    expect(doc.paths['/health/live'].get.security).toBeUndefined();
    expect(doc.paths['/health/ready'].get.security).toBeUndefined();
    // The metrics token is optional in the document because it is required only when METRICS_TOKEN is set.
    expect(doc.paths['/metrics'].get.security).toEqual([{ 'metrics-token': [] }, {}]);
  });

  it('documents every request field with its bounds, default and example', () => {
    const request = schema('SearchRequestDto');
    // query is required unless near, bbox or looking_at is given: optional in the schema, said in its description.
    expect(request.required).toBeUndefined();
    expect(request.properties.query.description).toMatch(/Required unless near, bbox or looking_at/);
    expect(request.additionalProperties).toBe(false);
    expect(request.properties.query).toMatchObject({ type: 'string', minLength: 1, maxLength: 256 });
    expect(request.properties.bbox).toMatchObject({ type: 'array', minItems: 4, maxItems: 4 });
    expect(request.properties.sort.enum).toEqual(['relevance', 'distance', 'newest', 'oldest']);
    expect(request.properties.include.items.enum).toEqual(['captured_at', 'heading', 'distance_m', 'score', 'total', 'interpretation']);
    expect(schema('NearDto')).toMatchObject({ required: ['lat', 'lon'], properties: { radius_m: { minimum: 1, maximum: 50000, default: 250 } } });
    expect(request.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(request.properties.page).toMatchObject({ type: 'integer', minimum: 1, maximum: 10000, default: 1 });
    for (const property of Object.values<any>(request.properties)) {
      if (property.$ref || property.allOf) continue; // nested objects: their own properties carry examples
      expect(property.example).toBeDefined();
      expect(property.description).toEqual(expect.any(String));
    }
  });

  it.each([
    [SearchRequestDto, 'SearchRequestDto'],
    [NearDto, 'NearDto'],
    [LookingAtDto, 'LookingAtDto'],
    [HeadingRangeDto, 'HeadingRangeDto'],
  ])('documents every field the validation pipe accepts in %p (new DTO fields need @ApiProperty)', (dto, name) => {
    const validated = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => m.propertyName),
    );
    expect([...validated].sort()).toEqual(Object.keys(schema(name).properties).sort());
    for (const property of Object.values<any>(schema(name).properties)) {
      if (!property.$ref && !property.allOf) expect(property.example).toBeDefined();
    }
  });

  it('describes the response contract exactly, closed to extra keys', () => {
    // Required = the default contract; the optional rest appear only when asked for with include.
    const response = schema('SearchResponseDto');
    expect(response.required.sort()).toEqual(['data', 'isSuccess', 'page', 'pageTotal', 'region', 'region_id', 'result_id']);
    expect(Object.keys(response.properties).filter((k) => !response.required.includes(k)).sort()).toEqual(['interpretation', 'total', 'total_exact']);
    expect(response.additionalProperties).toBe(false);
    const record = schema('ImageryRecordDto');
    expect(record.required.sort()).toEqual(['address', 'compass', 'date', 'geometry', 'id', 'image', 'interactive']);
    expect(Object.keys(record.properties).filter((k) => !record.required.includes(k)).sort()).toEqual(['captured_at', 'distance_m', 'heading', 'score']);
    expect(record.additionalProperties).toBe(false);
    expect(schema('GeoJsonPoint').properties.coordinates).toMatchObject({ minItems: 2, maxItems: 2 });
  });

  it('lists every error of POST /search with the one error shape, its codes and an example per code', () => {
    const responses = doc.paths['/search'].post.responses;
    expect(Object.keys(responses).sort()).toEqual(['200', ...Object.keys(ERROR_CODES_BY_STATUS)].sort());
    for (const [status, codes] of Object.entries(ERROR_CODES_BY_STATUS)) {
      const json = responses[status].content['application/json'];
      expect(json.schema.allOf[0]).toEqual({ $ref: '#/components/schemas/ErrorResponseDto' });
      expect(json.schema.allOf[1].properties.error.properties.code.enum).toEqual(codes);
      expect(Object.keys(json.examples)).toEqual(codes);
      for (const code of codes) expect(json.examples[code].value).toMatchObject({ isSuccess: false, error: { code } });
    }
    expect(responses['503'].headers['Retry-After']).toBeDefined();
  });

  it('answers every error of every operation as JSON in the error shape', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (Number(status) < 400) continue;
          expect({ path, method, status, types: Object.keys(response.content) }).toEqual({ path, method, status, types: ['application/json'] });
          expect(response.content['application/json'].schema.allOf[0].$ref).toBe('#/components/schemas/ErrorResponseDto');
        }
      }
    }
    expect(schema('ErrorResponseDto')).toMatchObject({ required: ['isSuccess', 'error'], additionalProperties: false });
    expect(schema('ErrorInfoDto').required).toEqual(['code', 'message']);
  });

  it('serves Swagger UI at /docs with its assets from the app itself (no CDN)', async () => {
    const html = (await contract.direct.get('/docs').expect(200).expect('content-type', /text\/html/)).text;
    const assets = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const path = new URL(asset, 'http://x/docs').pathname;
      const res = await contract.direct.get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/css|javascript|png/);
    }
    const init = (await contract.direct.get('/docs/swagger-ui-init.js').expect(200)).text;
    expect(init).toContain('"x-api-key"');
    expect(init).toContain('"tryItOutEnabled": true');
    // Helmet's CSP must let the page load its own scripts and call the API (try it out) on the same origin.
    const csp = (await contract.direct.get('/docs')).headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
  });

  it('"try it out" works: a request built from the document\'s security scheme gets results', async () => {
    const scheme = doc.components.securitySchemes['x-api-key'];
    const example = schema('SearchRequestDto').properties;
    const key = await createKey(app, 'swagger-ui');
    const res = await contract.http
      .post('/search')
      .set(scheme.name, key)
      .send({ query: example.query.example, limit: example.limit.example, page: example.page.example })
      .expect(200);
    expect(res.body.isSuccess).toBe(true);
  });
});

describe('opt-in fields against the document', () => {
  let contract: ContractProxy;
  let key: string;
  beforeAll(async () => {
    const app = await startApp();
    key = await createKey(app);
    contract = await startContractProxy(app);
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(() => contract.close());

  it('validates every include, and a null interpretation when there is no query', async () => {
    const include = ['captured_at', 'heading', 'distance_m', 'score', 'total', 'interpretation'];
    const res = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ near: { lat: 47.14, lon: 9.52, radius_m: 1000 }, include })
      .expect(200);
    expect(res.body).toMatchObject({ interpretation: null, total_exact: true });
    const text = await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz', include }).expect(200);
    expect(text.body.interpretation).toMatchObject({ kind: 'text' });
  });
});

describe('rate limits against the document', () => {
  it('answers 429 RATE_LIMITED with Retry-After and the RateLimit fields as documented', async () => {
    const app = await startApp();
    const contract = await startContractProxy(app);
    try {
      const { key } = await app.get(ApiKeyService).create('one-a-minute', 1);
      const ok = await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' }).expect(200);
      expect(ok.headers['ratelimit-policy']).toBe('"per-key";q=1;w=60');
      const limited = await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' }).expect(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(contract.takeViolations()).toEqual([]);
    } finally {
      await contract.close();
    }
  });
});

describe('the contract harness itself', () => {
  let contract: ContractProxy;
  let key: string;

  beforeAll(async () => {
    const app = await startApp();
    key = await createKey(app);
    // A document the real app cannot satisfy: a region it never returns, error messages of at most
    // 3 characters, and no 400 response.
    contract = await startContractProxy(app, (document) => {
      document.components.schemas.SearchResponseDto.properties.region.enum = ['mars'];
      document.components.schemas.ErrorInfoDto.properties.message.maxLength = 3;
      delete document.paths['/search'].post.responses['400'];
    });
  });
  afterAll(() => contract.close());

  it('fails a response body that breaks the document', async () => {
    await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' });
    expect(contract.takeViolations().join('\n')).toMatch(/region/);
  });

  it('fails an error response that breaks the document', async () => {
    await contract.http.post('/search').set('x-api-key', 'lis_wrong_key_0000000000000000').send({ query: 'Vaduz' });
    expect(contract.takeViolations().join('\n')).toMatch(/message must NOT have more than 3 characters/);
  });

  it('fails a status code the document does not list', async () => {
    await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz', limit: 0 }).expect(400);
    expect(contract.takeViolations().join('\n')).toMatch(/Unable to match the returned status code/);
  });

  // A schema the validator cannot compile is silently treated as valid; make sure none is.
  it('every documented JSON response schema rejects a body that is not an object', async () => {
    const doc = (await contract.direct.get('/openapi.json').expect(200)).body;
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (!response.content?.['application/json']) continue;
          const fake = { status: Number(status), headers: { 'content-type': 'application/json' }, body: 'not an object' };
          contract.checkDirect(method, path.replace(/\{[^}]+\}/g, 'x'), fake as any);
          expect({ path, method, status, rejected: contract.takeViolations().length > 0 }).toEqual({ path, method, status, rejected: true });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it('fails a direct response that breaks the error shape', async () => {
    const res = await contract.direct.get('/nope').expect(404);
    contract.checkDirect('GET', '/nope', { ...res, body: { isSuccess: false, error: { code: 'NOT_FOUND' } } } as any);
    expect(contract.takeViolations().join('\n')).toMatch(/must have required property 'message'/);
  });
});
