import { Module } from '@nestjs/common';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKeyChanges } from './api-key-changes';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { KnownApiKeys } from './known-api-keys';

@Module({
  imports: [RateLimitModule],
  providers: [ApiKeyService, ApiKeyRepository, ApiKeyGuard, ApiKeyChanges, KnownApiKeys],
  exports: [ApiKeyService, ApiKeyGuard, ApiKeyChanges, KnownApiKeys, RateLimitModule],
})
export class ApiKeyModule {}
