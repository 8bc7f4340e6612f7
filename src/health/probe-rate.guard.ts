import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { HeldAnswers } from '../rate-limit/held-answers';

// Addresses counted in one second at most; past it the second's counts start again (a flood from
// more addresses than this is spread too thin for any one to be held).
const ADDRESSES_PER_SECOND_MAX = 10_000;

// Probes need no key and are never refused (a refused probe takes the instance out of its load
// balancer), but one address's probes beyond HEALTH_PROBES_PER_SECOND in a second are answered
// after FLOOD_ANSWER_DELAY_MS (HeldAnswers), so a flood of probes cannot take the searches' CPU.
// Counted in this instance's memory: probes are answered by the instance they reach.
@Injectable()
export class ProbeRateGuard implements CanActivate {
  private second = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly heldAnswers: HeldAnswers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (this.count(normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown')) > this.config.healthProbesPerSecond) {
      await this.heldAnswers.hold(http.getResponse<Response>());
    }
    return true;
  }

  private count(address: string): number {
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.second || this.counts.size >= ADDRESSES_PER_SECOND_MAX) {
      this.second = second;
      this.counts.clear();
    }
    const n = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, n);
    return n;
  }
}
