import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';

@Module({
  imports: [RateLimitModule],
  providers: [ApiKeyService, ApiKeyRepository, ApiKeyGuard],
  exports: [ApiKeyService, ApiKeyGuard, RateLimitModule],
})
export class ApiKeyModule {}
