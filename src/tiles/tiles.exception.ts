import { AppException, ErrorDetail } from '../common/app-exception';

export enum TilesExceptionCode {
  // z, x or y is no tile: not an integer, or out of range for the zoom.
  INVALID_TILE = 'INVALID_TILE',
}

const STATUS: Record<TilesExceptionCode, number> = {
  INVALID_TILE: 400,
};

export class TilesException extends AppException {
  readonly status: number;
  constructor(code: TilesExceptionCode, message: string, details?: ErrorDetail[]) {
    super(code, message, details);
    this.status = STATUS[code];
  }
}
