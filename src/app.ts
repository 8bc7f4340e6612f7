import { Logger, LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiKeyService } from './api-key/api-key.service';
import { AppModule } from './app.module';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { applyHttpServerLimits } from './common/http-server-limits';
import { jsonBody } from './common/json-body.middleware';
import { RequestBodyInterceptor } from './common/request-body.interceptor';
import { AppValidationPipe } from './common/validation.pipe';
import { AppConfig, LogLevel } from './config/app-config';
import { Migrator } from './database/migrator';

const NEST_LEVELS: Record<LogLevel, NestLogLevel[]> = {
  silent: [],
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

// Builds the HTTP application; main.ts and the e2e tests share it so tests exercise the real setup.
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: NEST_LEVELS[config.logLevel],
  });
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  applyHttpServerLimits(app.getHttpServer());
  app.use(jsonBody());
  app.useGlobalInterceptors(new RequestBodyInterceptor());
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  app.enableShutdownHooks();
  return app;
}

// Startup work that must happen before serving: schema migrations and the bootstrap key.
export async function prepareDatabase(config: AppConfig, app?: NestExpressApplication): Promise<void> {
  const logger = new Logger('Startup');
  const { applied } = await new Migrator(config.databaseUrl).migrate();
  if (applied.length > 0) logger.log(`Applied migrations: ${applied.join(', ')}`);
  if (app && config.bootstrapApiKey) {
    await app.get(ApiKeyService).register(config.bootstrapApiKey, 'bootstrap');
    logger.log('Registered BOOTSTRAP_API_KEY');
  }
}
