import { AppException } from '../common/app-exception';

export enum ApiKeyExceptionCode {
  MISSING_API_KEY = 'MISSING_API_KEY',
  INVALID_API_KEY = 'INVALID_API_KEY',
  API_KEY_NOT_FOUND = 'API_KEY_NOT_FOUND',
  AMBIGUOUS_API_KEY = 'AMBIGUOUS_API_KEY',
  INVALID_RATE_LIMIT = 'INVALID_RATE_LIMIT',
}

const STATUS: Record<ApiKeyExceptionCode, number> = {
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  API_KEY_NOT_FOUND: 404,
  AMBIGUOUS_API_KEY: 409,
  INVALID_RATE_LIMIT: 400,
};

export class ApiKeyException extends AppException {
  readonly status: number;
  constructor(code: ApiKeyExceptionCode, message: string) {
    super(code, message);
    this.status = STATUS[code];
  }
}
