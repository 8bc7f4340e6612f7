import { AppException } from '../common/app-exception';

export enum RateLimitExceptionCode {
  RATE_LIMITED = 'RATE_LIMITED',
}

// 429 with Retry-After, thrown only by enforceRateLimit (rate-limit-refusal.ts), which sets the RateLimit fields first.
export class RateLimitException extends AppException {
  readonly status = 429;
  constructor(message: string, retryAfterSeconds: number) {
    super(RateLimitExceptionCode.RATE_LIMITED, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}
