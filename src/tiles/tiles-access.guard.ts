import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiKeyGuard } from '../api-key/api-key.guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { KeyQuotaGuard } from '../rate-limit/key-quota.guard';
import { enforceRateLimit } from '../rate-limit/rate-limit-refusal';
import { RateLimitService } from '../rate-limit/rate-limit.service';

// Who may read tiles (docs/map-tiles.md): anyone by default, limited per client address like the other
// public routes (TILES_PER_MINUTE); with TILES_REQUIRE_KEY=true, holders of a key, as /search (the key
// authenticated, then its own quota counted).
@Injectable()
export class TilesAccessGuard implements CanActivate {
  constructor(
    private readonly apiKey: ApiKeyGuard,
    private readonly keyQuota: KeyQuotaGuard,
    private readonly rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.config.tilesRequireKey) {
      await this.apiKey.canActivate(context);
      return this.keyQuota.canActivate(context);
    }
    const req = context.switchToHttp().getRequest<Request>();
    const decision = await this.rateLimits.consumeAddressQuota(
      'tiles',
      this.config.tilesPerMinute,
      req.ip ?? req.socket.remoteAddress,
    );
    enforceRateLimit(context.switchToHttp().getResponse<Response>(), decision);
    return true;
  }
}
