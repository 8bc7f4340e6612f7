import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { MetricsException, MetricsExceptionCode } from './metrics.exception';

// GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. The metrics tell the version, the routes
// and the traffic on each, so without a token they are closed unless METRICS_OPEN=true says otherwise.
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly expected?: Buffer;
  private readonly open: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = config.metricsToken ? sha256(config.metricsToken) : undefined;
    this.open = !this.expected && config.metricsOpen;
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.open) return true;
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    const match = /^Bearer ([\x21-\x7e]{1,500})$/i.exec(header ?? '');
    if (!header)
      throw new MetricsException(MetricsExceptionCode.MISSING_METRICS_TOKEN, 'Missing Authorization: Bearer header');
    // Hashes have equal length, so the comparison takes the same time whatever was sent.
    if (!match || !this.expected || !timingSafeEqual(sha256(match[1]), this.expected)) {
      throw new MetricsException(MetricsExceptionCode.INVALID_METRICS_TOKEN, 'Invalid metrics token');
    }
    return true;
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
