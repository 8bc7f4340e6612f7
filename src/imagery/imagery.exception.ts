import { AppException } from '../common/app-exception';

export enum ImageryExceptionCode {
  // The input cannot be read on (bad structure, unreadable compression, unknown format).
  INVALID_INPUT = 'INVALID_INPUT',
  // Another import of the same source is running; two at once could delete each other's records.
  SOURCE_BUSY = 'SOURCE_BUSY',
}

const STATUS: Record<ImageryExceptionCode, number> = {
  INVALID_INPUT: 400,
  SOURCE_BUSY: 409,
};

export class ImageryException extends AppException {
  readonly status: number;
  constructor(code: ImageryExceptionCode, message: string) {
    super(code, message);
    this.status = STATUS[code];
  }
}
