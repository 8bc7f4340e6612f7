export interface ErrorDetail {
  field: string;
  message: string;
}

// Base of every feature exception: a stable code, its HTTP status and a client-safe message.
export abstract class AppException extends Error {
  abstract readonly status: number;
  constructor(
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export enum RequestExceptionCode {
  INVALID_REQUEST = 'INVALID_REQUEST',
  MALFORMED_JSON = 'MALFORMED_JSON',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  NOT_FOUND = 'NOT_FOUND',
  RANGE_NOT_SATISFIABLE = 'RANGE_NOT_SATISFIABLE',
  METHOD_NOT_ALLOWED = 'METHOD_NOT_ALLOWED',
  REQUEST_TIMEOUT = 'REQUEST_TIMEOUT',
  HEADERS_TOO_LARGE = 'HEADERS_TOO_LARGE',
}

const REQUEST_STATUS: Record<RequestExceptionCode, number> = {
  INVALID_REQUEST: 400,
  MALFORMED_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NOT_FOUND: 404,
  RANGE_NOT_SATISFIABLE: 416,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
};

// Problems with the HTTP request itself, before any feature logic runs.
export class RequestException extends AppException {
  readonly status: number;
  constructor(code: RequestExceptionCode, message: string, details?: ErrorDetail[], headers?: Record<string, string>) {
    super(code, message, details, headers);
    this.status = REQUEST_STATUS[code];
  }
}

export enum ServerExceptionCode {
  INTERNAL_ERROR = 'INTERNAL_ERROR',
  DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE',
  /** A stored image is missing or cannot be decoded (damaged on disk): the operator's to restore. */
  IMAGE_UNREADABLE = 'IMAGE_UNREADABLE',
}

// What the server cannot do now that an operator can put right answers 503, never 500.
const UNAVAILABLE: ReadonlySet<ServerExceptionCode> = new Set([
  ServerExceptionCode.DATABASE_UNAVAILABLE,
  ServerExceptionCode.IMAGE_UNREADABLE,
]);

export class ServerException extends AppException {
  readonly status: number;
  constructor(code: ServerExceptionCode, message: string, headers?: Record<string, string>) {
    super(code, message, undefined, headers);
    this.status = UNAVAILABLE.has(code) ? 503 : 500;
  }
}

export interface ErrorBody {
  isSuccess: false;
  error: { code: string; message: string; details?: ErrorDetail[] };
}

// An error answers for this moment only (a refused key, a database away, a bad tile number): no cache,
// shared or a browser's, may keep it and serve it again. Sent with every error body.
export const ERROR_CACHE_CONTROL = 'no-store';

export function errorBody(e: AppException): ErrorBody {
  return {
    isSuccess: false,
    error: { code: e.code, message: e.message, ...(e.details?.length ? { details: e.details } : {}) },
  };
}
