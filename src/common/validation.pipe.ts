import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, RequestException, RequestExceptionCode } from './app-exception';

// Global validation: whitelist + transform, no implicit type conversion, errors in the API's shape.
@Injectable()
export class AppValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => toRequestException(errors),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Names such as __proto__ or toString, at any depth, were refused before this by checkJsonShape.
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new RequestException(RequestExceptionCode.INVALID_REQUEST, 'Request body must be a JSON object', [
        { field: '(body)', message: 'must be a JSON object' },
      ]);
    }
    return this.inner.transform(value, metadata);
  }
}

function toRequestException(errors: ValidationError[]): RequestException {
  const details = flatten(errors);
  return new RequestException(RequestExceptionCode.INVALID_REQUEST, details[0]?.message ?? 'Invalid request', details);
}

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    // One message per field is enough: the first constraint that failed.
    return [...own.slice(0, 1), ...flatten(e.children ?? [], field)];
  });
}
