import { AppException, ErrorDetail } from '../common/app-exception';

// What the STAC API refuses beyond the request-level problems every route shares (RequestException).
export enum StacExceptionCode {
  // A search or items parameter that cannot be read (named in `parameter`).
  INVALID_PARAMETER = 'INVALID_PARAMETER',
  COLLECTION_NOT_FOUND = 'COLLECTION_NOT_FOUND',
  ITEM_NOT_FOUND = 'ITEM_NOT_FOUND',
}

const STATUS: Record<StacExceptionCode, number> = {
  INVALID_PARAMETER: 400,
  COLLECTION_NOT_FOUND: 404,
  ITEM_NOT_FOUND: 404,
};

export class StacException extends AppException {
  readonly status: number;
  constructor(code: StacExceptionCode, field: string, message: string) {
    const details: ErrorDetail[] = [{ field, message }];
    super(code, message, details);
    this.status = STATUS[code];
  }
}

export const invalidParameter = (parameter: string, rule: string) =>
  new StacException(StacExceptionCode.INVALID_PARAMETER, parameter, `${parameter} ${rule}`);
