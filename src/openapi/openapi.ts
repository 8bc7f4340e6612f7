import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ServerObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { API_KEY_SECURITY } from '../api-key/api-key.openapi';
import { METRICS_SECURITY } from '../metrics/metrics.controller';
import { swaggerUiFiles } from './swagger-ui-files';

export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

// The OpenAPI 3 document, generated from the controllers' and DTOs' decorators.
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Location Imagery Search')
    .setDescription(
      'Free-text place in, street-level imagery metadata out. Every error has one shape: ' +
        '`{isSuccess: false, error: {code, message, details?}}`. Every response carries `X-Request-Id` ' +
        '(an incoming one is echoed).',
    )
    .setVersion(packageVersion())
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addTag('search', 'Imagery search (needs an API key)')
    .addTag('tiles', 'Vector tiles of the map (no key unless TILES_REQUIRE_KEY=true; limited per client address)')
    .addTag('images', "A photo record's stored images: thumb, sd, hd and the original (no key; immutable URLs)")
    .addTag(
      'stac',
      'The catalogue as a STAC API 1.0.0 and OGC API Features service, at /stac (needs an API key). ' +
        'It describes itself (landing page, conformance classes) and answers errors in the STAC shape, so its ' +
        'routes are not part of this document: see docs/stac.md.',
    )
    .addTag('demo', 'Placeholder images drawn for the demo seed (no key; limited per client address)')
    .addTag('operations', 'Health probes and metrics for orchestrators and monitoring')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (lis_...)' },
      API_KEY_SECURITY,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: 'METRICS_TOKEN (needed unless the server sets METRICS_OPEN=true)',
      },
      METRICS_SECURITY,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
  // Relative: each deployment serves its own document, so the server is wherever it was fetched from.
  // x-internal: false says the API is meant for outside clients (OWASP API9, inventory).
  document.servers = [
    {
      url: '/',
      description: 'This deployment (production, staging or local): the origin serving this document',
      'x-internal': false,
    } as ServerObject,
  ];
  return nullableReferences(closeObjectSchemas(document));
}

// Read at runtime (not imported, which would copy package.json into dist and confuse webRoot()):
// the first package.json above this file is the project's, from src/ and from dist/src/ alike.
function packageVersion(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

// The DTOs are closed: the validation pipe refuses unknown request fields, and responses never carry
// extra keys by default. Saying so lets clients and the contract tests rely on it.
function closeObjectSchemas(document: OpenAPIObject): OpenAPIObject {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if ('properties' in schema && schema.additionalProperties === undefined) schema.additionalProperties = false;
  }
  return document;
}

// A nullable property that refers to a class is written {type: object, nullable: true, allOf: [$ref]}
// (OpenAPI 3.0 honours nullable only beside a type). allOf members are checked on their own, though,
// so null must pass the referenced schema too: a schema referred to only by nullable properties is
// made nullable itself. One referred to elsewhere too is left alone (null would be wrong there).
function nullableReferences(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const text = JSON.stringify(document);
  const nullableRefs = new Map<string, number>();
  for (const schema of Object.values(schemas)) {
    for (const value of Object.values(('properties' in schema && schema.properties) || {})) {
      const property = value as { nullable?: unknown; allOf?: Array<{ $ref?: unknown }> } | undefined;
      const ref: unknown =
        property?.nullable === true && property.allOf?.length === 1 ? property.allOf[0].$ref : undefined;
      if (typeof ref === 'string') nullableRefs.set(ref, (nullableRefs.get(ref) ?? 0) + 1);
    }
  }
  for (const [ref, uses] of nullableRefs) {
    const target = schemas[ref.split('/').pop()!];
    const allUses = text.split(JSON.stringify(ref)).length - 1;
    if (target && !('$ref' in target) && allUses === uses) Object.assign(target, { type: 'object', nullable: true });
  }
  return document;
}

// GET /openapi.json and Swagger UI at /docs; the UI's assets come from the swagger-ui-dist package.
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  app.use(DOCS_PATH, swaggerUiFiles());
  SwaggerModule.setup(DOCS_PATH.slice(1), app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'Location Imagery Search API',
    swaggerOptions: {
      persistAuthorization: false,
      tryItOutEnabled: true,
      validatorUrl: null,
      displayRequestDuration: true,
    },
  });
  return document;
}
