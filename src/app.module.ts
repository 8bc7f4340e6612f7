import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { ApiKeyModule } from './api-key/api-key.module';
import { AppConfig } from './config/app-config';
import { DatabaseModule } from './database/database.module';
import { DemoImageModule } from './demo-image/demo-image.module';
import { HealthModule } from './health/health.module';
import { ImageryModule } from './imagery/imagery.module';
import { PlacesModule } from './places/places.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { createRootLogger } from './logging/logging';
import { MetricsModule } from './metrics/metrics.module';
import { SearchModule } from './search/search.module';
import { WebPageModule } from './web-page/web-page.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: Logger = createRootLogger(config)): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot(config),
        // useExisting: createApp mounts pino-http itself, ahead of every other middleware.
        LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true }),
        LifecycleModule,
        MetricsModule,
        HealthModule,
        ApiKeyModule,
        SearchModule,
        ImageryModule,
        PlacesModule,
        DemoImageModule,
        WebPageModule,
      ],
    };
  }
}
