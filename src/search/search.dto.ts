// class-transformer's @Type reads design-time type metadata.
import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  Max,
  Min,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  Validate,
  ValidateNested,
} from 'class-validator';
import {
  BboxConstraint,
  CalendarDateConstraint,
  COMPASS_POINTS,
  CompassPoint,
  DateOrderConstraint,
  FacingOrHeadingConstraint,
  HeadingRangeDto,
  IncludeConstraint,
  IncludeName,
  LookingAtDto,
  NearDto,
  SORTS,
  SortOrder,
} from './search-filters.dto';

export const QUERY_MAX_LENGTH = 256;
export const LIMIT_DEFAULT = 10;
export const LIMIT_MAX = 100;
export const RESULT_WINDOW_MAX = 10_000;

const LIMIT_MESSAGE = `limit must be an integer between 1 and ${LIMIT_MAX}`;
const PAGE_MESSAGE = 'page must be an integer of at least 1';
const QUERY_MESSAGE = `query must be a string of 1 to ${QUERY_MAX_LENGTH} characters after trimming`;
const QUERY_REQUIRED = 'query is required unless near, bbox or looking_at is given';
const queryMessage = (args: ValidationArguments) => (args.value === undefined ? QUERY_REQUIRED : QUERY_MESSAGE);
const objectMessage = (field: string, shape: string) => `${field} must be an object ${shape}`;

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

// Absent means "not given"; an explicit null is an error like any other wrong type.
const given = (field: keyof SearchRequestDto) => (o: SearchRequestDto) => o[field] !== undefined;

export class SearchRequestDto {
  // Optional only when a place is given another way.
  @ValidateIf((o: SearchRequestDto) => o.query !== undefined || (o.near === undefined && o.bbox === undefined && o.looking_at === undefined))
  @Transform(cleanQuery)
  @IsString({ message: queryMessage })
  @Length(1, QUERY_MAX_LENGTH, { message: queryMessage })
  query?: string;

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

  @ValidateIf(given('near'))
  @IsObject({ message: objectMessage('near', '{ lat, lon, radius_m? }') })
  @ValidateNested()
  @Type(() => NearDto)
  near?: NearDto;

  @ValidateIf(given('bbox'))
  @Validate(BboxConstraint)
  bbox?: [number, number, number, number];

  @ValidateIf(given('captured_after'))
  @Validate(CalendarDateConstraint)
  captured_after?: string;

  @ValidateIf(given('captured_before'))
  @Validate(CalendarDateConstraint)
  @Validate(DateOrderConstraint)
  captured_before?: string;

  @ValidateIf(given('interactive'))
  @IsBoolean({ message: 'interactive must be true or false' })
  interactive?: boolean;

  @ValidateIf(given('facing'))
  @IsIn(COMPASS_POINTS, { message: `facing must be one of ${COMPASS_POINTS.join(', ')}` })
  facing?: CompassPoint;

  @ValidateIf(given('heading'))
  @Validate(FacingOrHeadingConstraint)
  @IsObject({ message: objectMessage('heading', '{ min, max } in degrees') })
  @ValidateNested()
  @Type(() => HeadingRangeDto)
  heading?: HeadingRangeDto;

  @ValidateIf(given('looking_at'))
  @IsObject({ message: objectMessage('looking_at', '{ lat, lon, fov_deg?, radius_m? }') })
  @ValidateNested()
  @Type(() => LookingAtDto)
  looking_at?: LookingAtDto;

  @ValidateIf(given('sort'))
  @IsIn(SORTS, { message: `sort must be one of ${SORTS.join(', ')}` })
  sort?: SortOrder;

  @ValidateIf(given('include'))
  @Validate(IncludeConstraint)
  include?: IncludeName[];
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
  // Opt-in (include); never present by default.
  captured_at?: string;
  heading?: number;
  distance_m?: number;
  score?: number;
}

// Opt-in `interpretation`: how the query text was read.
export interface SearchInterpretationDto {
  kind: 'text' | 'coordinates' | 'plus_code' | 'location_code';
  normalized: string;
  lat?: number;
  lon?: number;
}

export interface SearchResponseDto {
  isSuccess: true;
  page: number;
  pageTotal: number;
  data: ImageryRecordDto[];
  result_id: string;
  region: 'global';
  region_id: null;
  // Opt-in (include); never present by default.
  total?: number;
  total_exact?: boolean;
  interpretation?: SearchInterpretationDto | null;
}
