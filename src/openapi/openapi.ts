import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_SECURITY } from '../api-key/api-key.openapi';
import { METRICS_SECURITY } from '../metrics/metrics.controller';

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
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (lis_...)' }, API_KEY_SECURITY)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'METRICS_TOKEN, when it is set' }, METRICS_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (_controller, method) => method });
  return closeObjectSchemas(document);
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

// GET /openapi.json and Swagger UI at /docs; the UI's assets come from the swagger-ui-dist package.
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup(DOCS_PATH.slice(1), app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'Location Imagery Search API',
    swaggerOptions: { persistAuthorization: false, tryItOutEnabled: true, validatorUrl: null, displayRequestDuration: true },
  });
  return document;
}
