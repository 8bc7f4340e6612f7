import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { enforceRateLimit } from './rate-limit-refusal';
import { RateLimitService } from './rate-limit.service';

const POLICY = Symbol('clientAddressRateLimit');

interface AddressPolicy {
  /** The policy's name in the RateLimit fields and the counters' partition. */
  name: string;
  /** Requests per client address per minute, read from the configuration. */
  perMinute: (config: AppConfig) => number;
}

// Routes open to anyone (no API key) are limited per client address instead, with the same RateLimit
// fields and 429 as the keyed routes.
export function ClientAddressRateLimit(policy: AddressPolicy): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(POLICY, policy), UseGuards(ClientAddressRateLimitGuard));
}

@Injectable()
export class ClientAddressRateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<AddressPolicy | undefined>(POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!policy) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const decision = await this.rateLimits.consumeAddressQuota(
      policy.name,
      policy.perMinute(this.config),
      req.ip ?? req.socket.remoteAddress,
    );
    enforceRateLimit(context.switchToHttp().getResponse<Response>(), decision);
    return true;
  }
}
