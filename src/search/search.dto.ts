// class-transformer's @Type reads design-time type metadata.
import 'reflect-metadata';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
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
  INCLUDES,
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
  @ApiPropertyOptional({
    description:
      'Free-text place: an address, a place name, a location code, coordinates ("47.14, 9.52") or a plus code. ' +
      'Control characters become spaces; trimmed. Required unless near, bbox or looking_at is given.',
    minLength: 1,
    maxLength: QUERY_MAX_LENGTH,
    example: 'Herrengasse 35, Vaduz',
  })
  // Optional only when a place is given another way.
  @ValidateIf((o: SearchRequestDto) => o.query !== undefined || (o.near === undefined && o.bbox === undefined && o.looking_at === undefined))
  @Transform(cleanQuery)
  @IsString({ message: queryMessage })
  @Length(1, QUERY_MAX_LENGTH, { message: queryMessage })
  query?: string;

  // ValidateIf instead of IsOptional: absent means default, but an explicit null is an error.
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT, example: 5, description: 'Records per page.' })
  @ValidateIf((o: SearchRequestDto) => o.limit !== undefined)
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(LIMIT_MAX, { message: LIMIT_MESSAGE })
  limit: number = LIMIT_DEFAULT;

  @ApiPropertyOptional({
    type: 'integer',
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

  @ApiPropertyOptional({ type: () => NearDto, description: 'Only imagery within radius_m metres of the point.' })
  @ValidateIf(given('near'))
  @IsObject({ message: objectMessage('near', '{ lat, lon, radius_m? }') })
  @ValidateNested()
  @Type(() => NearDto)
  near?: NearDto;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'number' },
    minItems: 4,
    maxItems: 4,
    description:
      '[minLon, minLat, maxLon, maxLat] (GeoJSON order), edges included; longitudes -180..180, latitudes -90..90, ' +
      'minLat < maxLat; minLon > maxLon crosses the antimeridian, minLon == maxLon is refused.',
    example: [9.47, 47.05, 9.64, 47.27],
  })
  @ValidateIf(given('bbox'))
  @Validate(BboxConstraint)
  bbox?: [number, number, number, number];

  @ApiPropertyOptional({ format: 'date', description: 'Capture date on or after (inclusive), YYYY-MM-DD.', example: '2020-01-01' })
  @ValidateIf(given('captured_after'))
  @Validate(CalendarDateConstraint)
  captured_after?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'Capture date on or before (inclusive), YYYY-MM-DD; not earlier than captured_after.',
    example: '2024-12-31',
  })
  @ValidateIf(given('captured_before'))
  @Validate(CalendarDateConstraint)
  @Validate(DateOrderConstraint)
  captured_before?: string;

  @ApiPropertyOptional({ description: 'Only 360-degree (true) or only flat (false) imagery.', example: true })
  @ValidateIf(given('interactive'))
  @IsBoolean({ message: 'interactive must be true or false' })
  interactive?: boolean;

  @ApiPropertyOptional({
    enum: COMPASS_POINTS,
    description: "Heading in that sector of the 8-point rose (the response's compass sectors). Not together with heading.",
    example: 'NW',
  })
  @ValidateIf(given('facing'))
  @IsIn(COMPASS_POINTS, { message: `facing must be one of ${COMPASS_POINTS.join(', ')}` })
  facing?: CompassPoint;

  @ApiPropertyOptional({ type: () => HeadingRangeDto, description: 'Heading range in degrees. Not together with facing.' })
  @ValidateIf(given('heading'))
  @Validate(FacingOrHeadingConstraint)
  @IsObject({ message: objectMessage('heading', '{ min, max } in degrees') })
  @ValidateNested()
  @Type(() => HeadingRangeDto)
  heading?: HeadingRangeDto;

  @ApiPropertyOptional({
    type: () => LookingAtDto,
    description: 'Imagery near the target whose heading points at it; 360-degree imagery always qualifies.',
  })
  @ValidateIf(given('looking_at'))
  @IsObject({ message: objectMessage('looking_at', '{ lat, lon, fov_deg?, radius_m? }') })
  @ValidateNested()
  @Type(() => LookingAtDto)
  looking_at?: LookingAtDto;

  @ApiPropertyOptional({
    enum: SORTS,
    description:
      'Default: relevance for a text query; distance for coordinates, a plus code, or near / looking_at without a query; ' +
      'newest with only bbox. distance without a point, or relevance without a query, is 400 INVALID_SORT.',
    example: 'newest',
  })
  @ValidateIf(given('sort'))
  @IsIn(SORTS, { message: `sort must be one of ${SORTS.join(', ')}` })
  sort?: SortOrder;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...INCLUDES] },
    maxItems: 2 * INCLUDES.length,
    default: [],
    description: 'Opt-in detail: adds exactly the named fields to the response.',
    example: ['total', 'interpretation'],
  })
  @ValidateIf(given('include'))
  @Validate(IncludeConstraint)
  include?: IncludeName[];
}

// Response classes (not interfaces) so the OpenAPI document describes them. The pattern repeats the
// uuid format because validators commonly skip formats.
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const OPT_IN = (name: IncludeName) => `Only with include: ["${name}"].`;

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

  // Opt-in (include); never present by default.
  @ApiPropertyOptional({ format: 'date', description: `Capture date, ISO YYYY-MM-DD. ${OPT_IN('captured_at')}`, example: '2015-09-10' })
  captured_at?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 360, description: `Heading in degrees as stored (0 <= h < 360). ${OPT_IN('heading')}`, example: 273.1 })
  heading?: number;

  @ApiPropertyOptional({
    minimum: 0,
    description: `Metres from the search point on the sphere, to 0.1 m; only when a point is known. ${OPT_IN('distance_m')}`,
    example: 42.5,
  })
  distance_m?: number;

  @ApiPropertyOptional({ description: `Relevance (text) or closeness in [0, 1] (no text). ${OPT_IN('score')}`, example: 1.025 })
  score?: number;
}

// Opt-in `interpretation`: how the query text was read.
export class SearchInterpretationDto {
  @ApiProperty({ enum: ['text', 'coordinates', 'plus_code', 'location_code'], example: 'text' })
  kind: 'text' | 'coordinates' | 'plus_code' | 'location_code';

  @ApiProperty({ description: 'The words searched (text), lat,lon (coordinates), the full plus code, or the location code', example: 'herrengasse 35 vaduz' })
  normalized: string;

  @ApiPropertyOptional({ minimum: -90, maximum: 90, description: 'The point searched around (coordinates, plus_code)', example: 47.14 })
  lat?: number;

  @ApiPropertyOptional({ minimum: -180, maximum: 180, description: 'The point searched around (coordinates, plus_code)', example: 9.52 })
  lon?: number;
}

@ApiExtraModels(SearchInterpretationDto)
export class SearchResponseDto {
  @ApiProperty({ enum: [true], example: true })
  isSuccess: true;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The requested page, echoed', example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'ceil(total matches / limit); 0 when nothing matched', example: 1 })
  pageTotal: number;

  @ApiProperty({ type: () => [ImageryRecordDto], maxItems: LIMIT_MAX, description: 'Ordered by the sort, ending with the id; empty past the last page' })
  data: ImageryRecordDto[];

  @ApiProperty({
    format: 'uuid',
    pattern: UUID_PATTERN,
    description: 'UUID v5 of the normalized request (query, limit, filters, non-default sort): the same on every page of one search',
    example: '3f1c2b9e-5d7a-5e4b-9c1d-2a3b4c5d6e7f',
  })
  result_id: string;

  @ApiProperty({ enum: ['global'], example: 'global' })
  region: 'global';

  // Not enum: [null]: validators such as Prism's fail to compile it and then silently skip the whole body.
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Always null (reserved)' })
  region_id: null;

  // Opt-in (include); never present by default.
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: `Number of matches, counted up to ${RESULT_WINDOW_MAX}. ${OPT_IN('total')}`, example: 4 })
  total?: number;

  @ApiPropertyOptional({ description: `false when counting stopped at the cap (or a single word is known to match far more). ${OPT_IN('total')}`, example: true })
  total_exact?: boolean;

  // allOf, not a bare $ref: OpenAPI 3.0 ignores nullable beside $ref, and null is a real answer here.
  @ApiPropertyOptional({
    allOf: [{ $ref: getSchemaPath(SearchInterpretationDto) }],
    nullable: true,
    description: `How query was read; null without a query. ${OPT_IN('interpretation')}`,
  })
  interpretation?: SearchInterpretationDto | null;
}
