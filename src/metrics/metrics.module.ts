import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsTokenGuard } from './metrics-token.guard';
import { MetricsService } from './metrics.service';
import { SearchMetricsInterceptor } from './search-metrics.interceptor';

// Global so feature controllers can use SearchMetricsInterceptor without importing this module.
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsTokenGuard, SearchMetricsInterceptor],
  exports: [MetricsService, SearchMetricsInterceptor],
})
export class MetricsModule {}
