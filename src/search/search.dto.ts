import { Transform } from 'class-transformer';
import {
  IsInt,
  IsString,
  Length,
  Max,
  Min,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  Validate,
} from 'class-validator';

export const QUERY_MAX_LENGTH = 256;
export const LIMIT_DEFAULT = 10;
export const LIMIT_MAX = 100;
export const RESULT_WINDOW_MAX = 10_000;

const LIMIT_MESSAGE = `limit must be an integer between 1 and ${LIMIT_MAX}`;
const PAGE_MESSAGE = 'page must be an integer of at least 1';
const QUERY_MESSAGE = `query must be a string of 1 to ${QUERY_MAX_LENGTH} characters after trimming`;

// C0/C1 control characters (including NUL, which PostgreSQL text cannot hold) become spaces.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;
const cleanQuery = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(CONTROL_CHARS, ' ').trim() : value;

@ValidatorConstraint({ name: 'resultWindow' })
class ResultWindowConstraint implements ValidatorConstraintInterface {
  validate(page: unknown, args: ValidationArguments): boolean {
    const { limit } = args.object as SearchRequestDto;
    if (!Number.isInteger(page) || !Number.isInteger(limit)) return true; // the field rules report those
    return (page as number) * limit <= RESULT_WINDOW_MAX;
  }
  defaultMessage(): string {
    return `page * limit must be at most ${RESULT_WINDOW_MAX}; narrow the query instead of paging this deep`;
  }
}

export class SearchRequestDto {
  @Transform(cleanQuery)
  @IsString({ message: QUERY_MESSAGE })
  @Length(1, QUERY_MAX_LENGTH, { message: QUERY_MESSAGE })
  query!: string;

  // ValidateIf instead of IsOptional: absent means default, but an explicit null is an error.
  @ValidateIf((o: SearchRequestDto) => o.limit !== undefined)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(LIMIT_MAX, { message: LIMIT_MESSAGE })
  limit: number = LIMIT_DEFAULT;

  @ValidateIf((o: SearchRequestDto) => o.page !== undefined)
  @IsInt({ message: PAGE_MESSAGE })
  @Min(1, { message: PAGE_MESSAGE })
  @Validate(ResultWindowConstraint)
  page: number = 1;
}

export interface GeoJsonPoint {
  type: 'Point';
  coordinates: [number, number];
}

export interface ImageryRecordDto {
  id: string;
  address: string;
  date: string;
  compass: string;
  interactive: boolean;
  geometry: GeoJsonPoint;
  image: string;
}

export interface SearchResponseDto {
  isSuccess: true;
  page: number;
  pageTotal: number;
  data: ImageryRecordDto[];
  result_id: string;
  region: 'global';
  region_id: null;
}
