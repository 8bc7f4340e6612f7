import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import helmet from 'helmet';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { applyHttpServerLimits } from './common/http-server-limits';
import { jsonBody } from './common/json-body.middleware';
import { RequestBodyInterceptor } from './common/request-body.interceptor';
import { AppValidationPipe } from './common/validation.pipe';
import { AppConfig } from './config/app-config';
import { ShutdownState } from './lifecycle/shutdown-state';
import { createRootLogger, REQUEST_ID_HEADER, requestLogger } from './logging/logging';
import { MetricsService } from './metrics/metrics.service';
import { setupOpenApi } from './openapi/openapi';

export interface AppOptions {
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
}

// Builds the HTTP application; main.ts and the e2e tests share it so tests exercise the real setup.
export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestExpressApplication> {
  const logger = createRootLogger(config, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, logger), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoNestLogger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  applyHttpServerLimits(app.getHttpServer());
  // Order matters: logging and timing first, so requests refused by any later step are still seen.
  app.use(requestLogger(logger));
  app.use(app.get(MetricsService).httpMiddleware());
  app.use(app.get(ShutdownState).middleware());
  // Self-hosted deployments often serve plain HTTP; upgrading the docs' asset requests would break them.
  // Image URLs from search results (demo images) are meant to be embedded by other origins.
  app.use(
    helmet({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
      methods: ['GET', 'POST'],
      allowedHeaders: ['content-type', 'x-api-key', 'authorization', REQUEST_ID_HEADER],
      exposedHeaders: [REQUEST_ID_HEADER, 'retry-after', 'ratelimit', 'ratelimit-policy'],
      maxAge: 600,
    });
  }
  app.use(compression());
  app.use(jsonBody());
  app.useGlobalInterceptors(new RequestBodyInterceptor());
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  setupOpenApi(app);
  return app;
}
