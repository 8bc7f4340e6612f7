import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import type { DestinationStream, Logger } from 'pino';
import { AppModule } from './app.module';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { applyHttpServerLimits } from './common/http-server-limits';
import { jsonBody } from './common/json-body.middleware';
import { responseCompression } from './common/response-compression';
import { securityHeaders } from './common/security-headers';
import { AppValidationPipe } from './common/validation.pipe';
import { ApiKeyChanges } from './api-key/api-key-changes';
import { KnownApiKeys } from './api-key/known-api-keys';
import { AppConfig } from './config/app-config';
import { ShutdownState } from './lifecycle/shutdown-state';
import { createRootLogger, nestLoggerFor, REQUEST_ID_HEADER } from './logging/logging';
import { requestLogger } from './logging/request-logger';
import { MetricsService } from './metrics/metrics.service';
import { setupOpenApi } from './openapi/openapi';

export interface AppOptions {
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
  /** The root logger, when the caller already logs through it (main.ts, from its first line). */
  logger?: Logger;
}

// Builds the HTTP application; main.ts and the e2e tests share it so tests exercise the real setup.
// Names the instance (INSTANCE_NAME) that answered; not a secret, and absent unless configured.
export const SERVED_BY_HEADER = 'x-served-by';

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  const logger = options.logger ?? createRootLogger(config, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(nestLoggerFor(logger));
  // Nest holds its own start-up lines until listen(); write them now, so lines logged while the
  // app prepares (the demo data's progress) appear as they happen, in order.
  app.flushLogs();
  app.disable('x-powered-by');
  // No ETag on dynamic responses: Express hashed every search response (docs/benchmarks.md#fig-no-etag)
  // for a header no client can use on a POST. Static assets keep theirs (serve-static).
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  applyHttpServerLimits(app.getHttpServer(), config);
  // First, so every response says which instance answered it, refusals and errors included.
  const servedBy = config.instanceName;
  if (servedBy) {
    app.use((_req: Request, res: Response, next: NextFunction) => {
      res.setHeader(SERVED_BY_HEADER, servedBy);
      next();
    });
  }
  // Order matters: logging and timing first, so requests refused by any later step are still seen.
  const knownKeys = app.get(KnownApiKeys);
  knownKeys.watch();
  app.use(requestLogger(logger, knownKeys.isKey));
  app.use(app.get(MetricsService).httpMiddleware());
  app.use(app.get(ShutdownState).middleware());
  app.use(securityHeaders());
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
      methods: ['GET', 'POST'],
      allowedHeaders: ['content-type', 'x-api-key', 'authorization', REQUEST_ID_HEADER],
      exposedHeaders: [REQUEST_ID_HEADER, SERVED_BY_HEADER, 'retry-after', 'ratelimit', 'ratelimit-policy'],
      maxAge: 600,
    });
  }
  app.use(responseCompression());
  app.use(jsonBody());
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  setupOpenApi(app);
  // A server hears keys revoked or re-limited elsewhere (tools only announce them).
  app.get(ApiKeyChanges).listen();
  return app;
}
