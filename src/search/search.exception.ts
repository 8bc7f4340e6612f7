import { AppException, ErrorDetail } from '../common/app-exception';

// Requests that pass field validation but cannot be searched as asked.
export enum SearchExceptionCode {
  INVALID_COORDINATES = 'INVALID_COORDINATES',
  INVALID_PLUS_CODE = 'INVALID_PLUS_CODE',
  INVALID_SORT = 'INVALID_SORT',
}

const STATUS: Record<SearchExceptionCode, number> = {
  INVALID_COORDINATES: 400,
  INVALID_PLUS_CODE: 400,
  INVALID_SORT: 400,
};

export class SearchException extends AppException {
  readonly status: number;
  constructor(code: SearchExceptionCode, field: string, message: string) {
    const details: ErrorDetail[] = [{ field, message }];
    super(code, message, details);
    this.status = STATUS[code];
  }
}
