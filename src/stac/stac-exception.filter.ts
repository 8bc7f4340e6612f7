import { Catch } from '@nestjs/common';
import { AppException } from '../common/app-exception';
import { HttpExceptionFilter } from '../common/http-exception.filter';

// The STAC API's error shape (core/commons.yaml `exception`: `code` and `description`), with the
// parameter at fault when one is: errors under /stac become HTTP answers by the service's one filter,
// in this shape instead of `{isSuccess, error}`.
export interface StacErrorBody {
  code: string;
  description: string;
  parameter?: string;
}

@Catch()
export class StacExceptionFilter extends HttpExceptionFilter {
  protected body(e: AppException): StacErrorBody {
    const parameter = e.details?.[0]?.field;
    return { code: e.code, description: e.message, ...(parameter === undefined ? {} : { parameter }) };
  }
}
