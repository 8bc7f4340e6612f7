import { ApiProperty } from '@nestjs/swagger';
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
  @ApiProperty({
    description: 'Free-text place: an address, a place name or a location code. Control characters become spaces; trimmed.',
    minLength: 1,
    maxLength: QUERY_MAX_LENGTH,
    example: 'Herrengasse 35, Vaduz',
  })
  @Transform(cleanQuery)
  @IsString({ message: QUERY_MESSAGE })
  @Length(1, QUERY_MAX_LENGTH, { message: QUERY_MESSAGE })
  query!: string;

  // ValidateIf instead of IsOptional: absent means default, but an explicit null is an error.
  @ApiProperty({
    type: 'integer',
    required: false,
    minimum: 1,
    maximum: LIMIT_MAX,
    default: LIMIT_DEFAULT,
    example: 5,
    description: 'Records per page.',
  })
  @ValidateIf((o: SearchRequestDto) => o.limit !== undefined)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(LIMIT_MAX, { message: LIMIT_MESSAGE })
  limit: number = LIMIT_DEFAULT;

  @ApiProperty({
    type: 'integer',
    required: false,
    minimum: 1,
    maximum: RESULT_WINDOW_MAX,
    default: 1,
    example: 1,
    description: `Page number, 1-based; page * limit must be at most ${RESULT_WINDOW_MAX}.`,
  })
  @ValidateIf((o: SearchRequestDto) => o.page !== undefined)
  @IsInt({ message: PAGE_MESSAGE })
  @Min(1, { message: PAGE_MESSAGE })
  @Validate(ResultWindowConstraint)
  page: number = 1;
}

// Response classes (not interfaces) so the OpenAPI document describes them. The pattern repeats the
// uuid format because validators commonly skip formats.
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export class GeoJsonPoint {
  @ApiProperty({ enum: ['Point'], example: 'Point' })
  type: 'Point';

  @ApiProperty({
    type: 'array',
    items: { type: 'number' },
    minItems: 2,
    maxItems: 2,
    description: '[longitude, latitude] in WGS84 degrees, full stored precision',
    example: [9.52, 47.14],
  })
  coordinates: [number, number];
}

export class ImageryRecordDto {
  @ApiProperty({ format: 'uuid', pattern: UUID_PATTERN, example: 'a0000000-0000-4000-8000-000000000035' })
  id: string;

  @ApiProperty({ example: 'Herrengasse 35, 9490 Vaduz' })
  address: string;

  @ApiProperty({ description: 'Capture date as stored (no time-zone shift), "Month day, year"', example: 'September 10, 2015' })
  date: string;

  @ApiProperty({
    description: 'Heading on the 8-point compass rose, each sector 45 degrees centred on its direction',
    pattern: '^Facing (North|Northeast|East|Southeast|South|Southwest|West|Northwest) \\((N|NE|E|SE|S|SW|W|NW)\\)$',
    example: 'Facing West (W)',
  })
  compass: string;

  @ApiProperty({ description: 'Whether the image is an interactive panorama', example: false })
  interactive: boolean;

  @ApiProperty({ type: () => GeoJsonPoint })
  geometry: GeoJsonPoint;

  @ApiProperty({ format: 'uri', pattern: '^https?://', description: 'Absolute image URL', example: 'https://img.example.com/herrengasse-35.jpg' })
  image: string;
}

export class SearchResponseDto {
  @ApiProperty({ enum: [true], example: true })
  isSuccess: true;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The requested page, echoed', example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'ceil(total matches / limit); 0 when nothing matched', example: 1 })
  pageTotal: number;

  @ApiProperty({ type: () => [ImageryRecordDto], maxItems: LIMIT_MAX, description: 'Ordered by relevance, then id; empty past the last page' })
  data: ImageryRecordDto[];

  @ApiProperty({
    format: 'uuid',
    pattern: UUID_PATTERN,
    description: 'UUID v5 of the normalized request (query and limit): the same on every page of one search',
    example: '3f1c2b9e-5d7a-5e4b-9c1d-2a3b4c5d6e7f',
  })
  result_id: string;

  @ApiProperty({ enum: ['global'], example: 'global' })
  region: 'global';

  // Not enum: [null]: validators such as Prism's fail to compile it and then silently skip the whole body.
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Always null (reserved)' })
  region_id: null;
}
