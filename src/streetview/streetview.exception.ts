import { AppException } from '../common/app-exception';

// A Street View metadata request that cannot be answered: Google's INVALID_REQUEST (a missing or
// malformed parameter). Answered with HTTP 200 and the status in the body, as Google does.
export enum StreetViewExceptionCode {
  INVALID_PARAMETER = 'INVALID_PARAMETER',
}

export class StreetViewException extends AppException {
  readonly status = 400;
  constructor(parameter: string, rule: string) {
    super(StreetViewExceptionCode.INVALID_PARAMETER, `${parameter} ${rule}`, [
      { field: parameter, message: `${parameter} ${rule}` },
    ]);
  }
}
