import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { createRateLimitStorage, RATE_LIMIT_STORAGE } from './rate-limit-storage';
import { HeldAnswers } from './held-answers';
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
    HeldAnswers,
  ],
  exports: [RateLimitService, KeyQuotaGuard, HeldAnswers],
})
export class RateLimitModule {}
