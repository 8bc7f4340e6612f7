import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { createRateLimitStorage, RATE_LIMIT_STORAGE } from './rate-limit-storage';
import { KeyQuotaGuard } from './key-quota.guard';
import { RateLimitService } from './rate-limit.service';

@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createRateLimitStorage(config),
    },
    RateLimitService,
    KeyQuotaGuard,
  ],
  exports: [RateLimitService, KeyQuotaGuard],
})
export class RateLimitModule {}
