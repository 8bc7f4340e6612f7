import { AppException } from '../common/app-exception';

export enum PlaceExceptionCode {
  // The place file cannot be read on (bad header, unreadable PBF, osmium missing).
  INVALID_INPUT = 'INVALID_INPUT',
  // Another import of the same places source is running; two at once could delete each other's places.
  SOURCE_BUSY = 'SOURCE_BUSY',
}

const STATUS: Record<PlaceExceptionCode, number> = {
  INVALID_INPUT: 400,
  SOURCE_BUSY: 409,
};

export class PlaceException extends AppException {
  readonly status: number;
  constructor(code: PlaceExceptionCode, message: string) {
    super(code, message);
    this.status = STATUS[code];
  }
}
