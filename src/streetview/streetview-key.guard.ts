import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyGuard } from '../api-key/api-key.guard';
import { KeyQuotaGuard } from '../rate-limit/key-quota.guard';

// The key as Google's clients send it (`key=` in the query) or as this service's do (x-api-key), then
// the same rule as POST /search: ApiKeyGuard (a refused key counts as a failed attempt) and the key's
// quota. Request logs redact `key=` (src/logging/log-redaction.ts).
@Injectable()
export class StreetViewKeyGuard implements CanActivate {
  constructor(
    private readonly apiKey: ApiKeyGuard,
    private readonly keyQuota: KeyQuotaGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const key = req.query.key;
    if (req.headers['x-api-key'] === undefined && typeof key === 'string') req.headers['x-api-key'] = key;
    await this.apiKey.canActivate(context);
    return this.keyQuota.canActivate(context);
  }
}
