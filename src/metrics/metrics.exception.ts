import { AppException } from '../common/app-exception';

export enum MetricsExceptionCode {
  MISSING_METRICS_TOKEN = 'MISSING_METRICS_TOKEN',
  INVALID_METRICS_TOKEN = 'INVALID_METRICS_TOKEN',
}

export class MetricsException extends AppException {
  readonly status = 401;
  constructor(code: MetricsExceptionCode, message: string) {
    super(code, message, undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
  }
}
