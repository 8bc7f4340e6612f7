import { AppException, ErrorDetail } from '../common/app-exception';

/** newest_per_spot compares each record with its neighbours, which a distributed imagery table cannot join. */
export const NEWEST_PER_SPOT_UNAVAILABLE = 'newest_per_spot is not available on a distributed (Citus) catalogue';

// Requests that pass field validation but cannot be searched as asked.
export enum SearchExceptionCode {
  INVALID_COORDINATES = 'INVALID_COORDINATES',
  INVALID_PLUS_CODE = 'INVALID_PLUS_CODE',
  INVALID_SORT = 'INVALID_SORT',
  FILTER_UNAVAILABLE = 'FILTER_UNAVAILABLE',
}

const STATUS: Record<SearchExceptionCode, number> = {
  INVALID_COORDINATES: 400,
  INVALID_PLUS_CODE: 400,
  INVALID_SORT: 400,
  FILTER_UNAVAILABLE: 400,
};

export class SearchException extends AppException {
  readonly status: number;
  constructor(code: SearchExceptionCode, field: string, message: string) {
    const details: ErrorDetail[] = [{ field, message }];
    super(code, message, details);
    this.status = STATUS[code];
  }
}
