import { AppException, ErrorDetail } from '../common/app-exception';

export enum HealthExceptionCode {
  NOT_READY = 'NOT_READY',
}

// Readiness failed: details name each failing check (database, migrations, shutdown) and why.
export class HealthException extends AppException {
  readonly status = 503;
  constructor(code: HealthExceptionCode, message: string, details: ErrorDetail[]) {
    super(code, message, details, { 'Retry-After': '5', 'Cache-Control': 'no-store' });
  }
}
