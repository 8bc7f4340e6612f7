import { AppException } from '../common/app-exception';

export enum ImportFormatExceptionCode {
  // The input cannot be read on (bad structure, a record past the size bound, CSV it cannot parse).
  INVALID_INPUT = 'INVALID_INPUT',
}

const STATUS: Record<ImportFormatExceptionCode, number> = {
  INVALID_INPUT: 400,
};

export class ImportFormatException extends AppException {
  readonly status: number;
  constructor(code: ImportFormatExceptionCode, message: string) {
    super(code, message);
    this.status = STATUS[code];
  }
}
