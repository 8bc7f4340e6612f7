import { LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { applyHttpServerLimits } from './common/http-server-limits';
import { jsonBody } from './common/json-body.middleware';
import { RequestBodyInterceptor } from './common/request-body.interceptor';
import { AppValidationPipe } from './common/validation.pipe';
import { AppConfig, LogLevel } from './config/app-config';

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
  return app;
}
