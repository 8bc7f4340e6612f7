import { Catch } from '@nestjs/common';
import { AppException } from '../common/app-exception';
import { HttpExceptionFilter } from '../common/http-exception.filter';

// Google's Street View metadata answers every outcome with HTTP 200 and a `status` in the body; the
// refusals of this route (a key, a rate limit, a parameter, the database) in that shape.
export type StreetViewErrorStatus = 'REQUEST_DENIED' | 'OVER_QUERY_LIMIT' | 'INVALID_REQUEST' | 'UNKNOWN_ERROR';

export function streetViewStatusOf(e: AppException): StreetViewErrorStatus {
  if (e.status === 401 || e.status === 403) return 'REQUEST_DENIED';
  if (e.status === 429) return 'OVER_QUERY_LIMIT';
  if (e.status >= 400 && e.status < 500) return 'INVALID_REQUEST';
  return 'UNKNOWN_ERROR';
}

@Catch()
export class StreetViewExceptionFilter extends HttpExceptionFilter {
  protected body(e: AppException): { error_message: string; status: StreetViewErrorStatus } {
    return { error_message: e.message, status: streetViewStatusOf(e) };
  }

  protected statusOf(): number {
    return 200;
  }
}
