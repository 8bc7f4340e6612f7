import { AppException, ErrorDetail } from '../common/app-exception';

export enum TilesExceptionCode {
  // z, x or y is no tile: not an integer, or out of range for the zoom.
  INVALID_TILE = 'INVALID_TILE',
  // The database cannot draw vector tiles (the built-in database's PostGIS has no ST_AsMVT).
  TILES_UNAVAILABLE = 'TILES_UNAVAILABLE',
}

const STATUS: Record<TilesExceptionCode, number> = {
  INVALID_TILE: 400,
  TILES_UNAVAILABLE: 501,
};

export class TilesException extends AppException {
  readonly status: number;
  constructor(code: TilesExceptionCode, message: string, details?: ErrorDetail[]) {
    super(code, message, details);
    this.status = STATUS[code];
  }
}
