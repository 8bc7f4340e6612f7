import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { getMetadataStorage } from 'class-validator';
import { HeadingRangeDto, LookingAtDto, NearDto } from '../../src/search/dto/search-filters.dto';
import { StructuredAddressDto } from '../../src/search/dto/structured-address.dto';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { createKey, startApp } from '../helpers/test-app';

const ROOT = join(__dirname, '..', '..');
const RESULTS = join(ROOT, 'test-results');
const SPECTRAL = require.resolve('@stoplight/spectral-cli/dist/index.js');

const ERROR_CODES_BY_STATUS: Record<string, string[]> = {
  '400': [
    'INVALID_REQUEST',
    'MALFORMED_JSON',
    'INVALID_COORDINATES',
    'INVALID_PLUS_CODE',
    'INVALID_SORT',
    'FILTER_UNAVAILABLE',
  ],
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
    doc = (
      await contract.direct
        .get('/openapi.json')
        .expect(200)
        .expect('content-type', /application\/json/)
    ).body;
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
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/demo-images/{file}',
      '/health/live',
      '/health/ready',
      '/images/{id}',
      '/images/{id}/view.jpg',
      '/images/{id}/{file}',
      '/metrics',
      '/search',
      '/tiles/{z}/{x}/{y}',
    ]);
    expect(doc.paths['/health/live'].get.security).toBeUndefined();
    // Tiles need no key unless TILES_REQUIRE_KEY=true: the key is optional in the document.
    expect(doc.paths['/tiles/{z}/{x}/{y}'].get.security).toEqual([{}, { 'x-api-key': [] }]);
    expect(doc.paths['/health/ready'].get.security).toBeUndefined();
    // The metrics token is optional in the document because METRICS_OPEN=true opens /metrics without one.
    expect(doc.paths['/metrics'].get.security).toEqual([{ 'metrics-token': [] }, {}]);
  });

  it('documents every request field with its bounds, default and example', () => {
    const request = schema('SearchRequestDto');
    // query is required unless address, near, bbox or looking_at is given: optional in the schema, said in its description.
    expect(request.required).toBeUndefined();
    expect(request.properties.query.description).toMatch(/Required unless address, near, bbox or looking_at/);
    expect(request.additionalProperties).toBe(false);
    expect(request.properties.query).toMatchObject({ type: 'string', minLength: 1, maxLength: 256 });
    expect(request.properties.bbox).toMatchObject({ type: 'array', minItems: 4, maxItems: 4 });
    expect(request.properties.sort.enum).toEqual(['relevance', 'distance', 'newest', 'oldest']);
    expect(request.properties.include.items.enum).toEqual([
      'captured_at',
      'heading',
      'distance_m',
      'score',
      'total',
      'interpretation',
      'place',
      'match',
      'camera',
      'sequence',
      'history',
    ]);
    expect(request.properties.region).toMatchObject({ type: 'string', maxLength: 6 });
    // lat and lon may be left out when query is coordinates or a plus code (near: { radius_m } is its radius).
    expect(schema('NearDto')).toMatchObject({
      properties: {
        lat: { minimum: -90, maximum: 90 },
        lon: { minimum: -180, maximum: 180 },
        radius_m: { minimum: 1, maximum: 50000, default: 250 },
      },
    });
    expect(schema('NearDto').required).toBeUndefined();
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
    [StructuredAddressDto, 'StructuredAddressDto'],
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
    expect(response.required.sort()).toEqual([
      'data',
      'isSuccess',
      'page',
      'pageTotal',
      'region',
      'region_id',
      'result_id',
    ]);
    expect(
      Object.keys(response.properties)
        .filter((k) => !response.required.includes(k))
        .sort(),
    ).toEqual(['interpretation', 'total', 'total_exact']);
    expect(response.additionalProperties).toBe(false);
    const record = schema('ImageryRecordDto');
    expect(record.required.sort()).toEqual(['address', 'compass', 'date', 'geometry', 'id', 'image', 'interactive']);
    expect(
      Object.keys(record.properties)
        .filter((k) => !record.required.includes(k))
        .sort(),
    ).toEqual(['camera', 'captured_at', 'distance_m', 'heading', 'history', 'match', 'place', 'score', 'sequence']);
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
          expect({ path, method, status, types: Object.keys(response.content) }).toEqual({
            path,
            method,
            status,
            types: ['application/json'],
          });
          expect(response.content['application/json'].schema.allOf[0].$ref).toBe(
            '#/components/schemas/ErrorResponseDto',
          );
        }
      }
    }
    expect(schema('ErrorResponseDto')).toMatchObject({ required: ['isSuccess', 'error'], additionalProperties: false });
    expect(schema('ErrorInfoDto').required).toEqual(['code', 'message']);
  });

  it('passes Spectral (spectral:oas and the OWASP API Security ruleset, .spectral.yaml) without a finding', () => {
    mkdirSync(RESULTS, { recursive: true });
    const file = join(RESULTS, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const run = spawnSync(
      process.execPath,
      [SPECTRAL, 'lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet'],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.error).toBeUndefined();
    const findings = JSON.parse(run.stdout || '[]').map((f: any) => `${f.code} at ${f.path.join('.')}: ${f.message}`);
    expect(findings).toEqual([]);
    expect(run.status).toBe(0);
  }, 120_000);

  it('is strict OpenAPI 3.0 where tools differ: a typed nullable, servers, declared tags, bounded dates and includes', () => {
    const interpretation = schema('SearchResponseDto').properties.interpretation;
    expect(interpretation).toMatchObject({
      type: 'object',
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/SearchInterpretationDto' }],
    });
    // allOf members are checked on their own: null must pass the referenced schema as well.
    expect(schema('SearchInterpretationDto')).toMatchObject({ type: 'object', nullable: true });
    // The nearest record when nothing is within the radius: null when none passes the filters.
    expect(schema('SearchInterpretationDto').properties.nearest).toMatchObject({
      type: 'object',
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/NearestImageryDto' }],
    });
    expect(schema('NearestImageryDto')).toMatchObject({ nullable: true, required: ['distance_m', 'lat', 'lon'] });
    // A record without a heading (a photo that gave no direction) has heading null.
    expect(schema('ImageryRecordDto').properties.heading).toMatchObject({ type: 'number', nullable: true });
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/', 'x-internal': false })]);
    const declared = doc.tags.map((t: { name: string }) => t.name);
    for (const item of Object.values<any>(doc.paths)) {
      for (const operation of Object.values<any>(item))
        for (const tag of operation.tags) expect(declared).toContain(tag);
    }
    const request = schema('SearchRequestDto');
    for (const field of ['captured_after', 'captured_before']) {
      expect(request.properties[field]).toMatchObject({
        type: 'string',
        format: 'date',
        pattern: '^(\\d{4})-(\\d{2})-(\\d{2})$',
        maxLength: 10,
      });
    }
    expect(request.properties.include).toMatchObject({
      uniqueItems: true,
      maxItems: request.properties.include.items.enum.length,
    });
  });

  it('declares the RateLimit fields on every answer of POST /search that passed the rate limit', () => {
    const responses = doc.paths['/search'].post.responses;
    for (const status of ['200', '400', '401', '413', '415', '429']) {
      expect({ status, headers: Object.keys(responses[status].headers ?? {}) }).toEqual({
        status,
        headers: expect.arrayContaining(['RateLimit-Policy', 'RateLimit']),
      });
    }
  });

  it('gives whole-request examples that are each valid as they stand', async () => {
    const examples = doc.paths['/search'].post.requestBody.content['application/json'].examples;
    expect(Object.keys(examples).length).toBeGreaterThanOrEqual(4);
    const key = await createKey(app, 'examples');
    for (const [name, example] of Object.entries<any>(examples)) {
      const res = await contract.http.post('/search').set('x-api-key', key).send(example.value);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
  });

  it('serves Swagger UI at /docs with its assets from the app itself (no CDN)', async () => {
    const html = (
      await contract.direct
        .get('/docs')
        .expect(200)
        .expect('content-type', /text\/html/)
    ).text;
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

  it('serves only what Swagger UI needs under /docs: no package.json, source maps or Petstore initializer', async () => {
    for (const path of [
      '/docs/package.json',
      '/docs/swagger-ui.js.map',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/swagger-initializer.js',
      '/docs/README.md',
      '/docs/index.js',
      '/docs/absolute-path.js',
      '/docs/oauth2-redirect.html',
      '/docs/swagger-ui.js',
      '/docs/package%2Ejson',
    ]) {
      const res = await contract.direct.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toEqual({ isSuccess: false, error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
    // index.html is where people look for the page: it leads to the working one.
    const index = await contract.direct.get('/docs/index.html').expect(301);
    expect(new URL(index.headers.location, 'http://x/docs/index.html').pathname).toBe('/docs/');
    const page = (await contract.direct.get('/docs/').expect(200)).text;
    for (const [, asset] of page.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)) {
      await contract.direct.get(new URL(asset, 'http://x/docs/').pathname).expect(200);
    }
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
