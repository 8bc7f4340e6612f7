// class-transformer's @Type reads design-time type metadata.
import { HISTORY_DISTANCE_M } from '../sql/record-history.sql';
import 'reflect-metadata';
import { ApiPropertyOptional } from '@nestjs/swagger';
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
import { LANG_MAX_LENGTH, LANG_PATTERN, LanguageTagConstraint } from './search-language.dto';
import {
  BboxConstraint,
  CALENDAR_DATE_SCHEMA,
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
  REGION_MAX_LENGTH,
  RegionCodeConstraint,
  SORTS,
  SortOrder,
} from './search-filters.dto';
import { COUNT_CAP } from '../paging/search-limits';
import { AddressPartsConstraint, StructuredAddressDto } from './structured-address.dto';

export const QUERY_MAX_LENGTH = 256;
export const LIMIT_DEFAULT = 10;
export const LIMIT_MAX = 100;

const LIMIT_MESSAGE = `limit must be an integer between 1 and ${LIMIT_MAX}`;
const PAGE_MESSAGE = 'page must be an integer of at least 1';
const QUERY_MESSAGE = `query must be a string of 1 to ${QUERY_MAX_LENGTH} characters after trimming`;
const QUERY_REQUIRED = 'query is required unless address, near, bbox or looking_at is given';
const queryMessage = (args: ValidationArguments) => (args.value === undefined ? QUERY_REQUIRED : QUERY_MESSAGE);
const objectMessage = (field: string, shape: string) => `${field} must be an object ${shape}`;

// C0/C1 control characters (including NUL, which PostgreSQL text cannot hold, tabs and line breaks),
// every Unicode space and separator (no-break, em, ideographic, line and paragraph separators) and the
// invisible word breaks (zero width space, word joiner, byte order mark, Mongolian vowel separator)
// become a space (a run of them one), so the words of a query pasted from anywhere are the words typed.
const SPACE_LIKE = /[\p{Cc}\p{Z}\u180E\u200B\u2060\uFEFF]+/gu;
const cleanQuery = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(SPACE_LIKE, ' ').trim() : value;

@ValidatorConstraint({ name: 'resultWindow' })
class ResultWindowConstraint implements ValidatorConstraintInterface {
  validate(page: unknown, args: ValidationArguments): boolean {
    const { limit } = args.object as SearchRequestDto;
    if (!Number.isInteger(page) || !Number.isInteger(limit)) return true; // the field rules report those
    return (page as number) * limit <= COUNT_CAP;
  }
  defaultMessage(): string {
    return `page * limit must be at most ${COUNT_CAP}; narrow the query instead of paging this deep`;
  }
}

// Absent means "not given"; an explicit null is an error like any other wrong type.
const given = (field: keyof SearchRequestDto) => (o: SearchRequestDto) => o[field] !== undefined;

export class SearchRequestDto {
  @ApiPropertyOptional({
    description:
      'Free-text place: an address, a place name, a location code, coordinates ("47.14, 9.52") or a plus code. ' +
      'Control characters and every kind of white space become spaces; trimmed. Required unless address, near, bbox or looking_at is given.',
    minLength: 1,
    maxLength: QUERY_MAX_LENGTH,
    example: 'Herrengasse 35, Vaduz',
  })
  // Optional only when a place is given another way.
  @ValidateIf(
    (o: SearchRequestDto) =>
      o.query !== undefined ||
      (o.address === undefined && o.near === undefined && o.bbox === undefined && o.looking_at === undefined),
  )
  @Transform(cleanQuery)
  @IsString({ message: queryMessage })
  @Length(1, QUERY_MAX_LENGTH, { message: queryMessage })
  query?: string;

  @ApiPropertyOptional({
    type: () => StructuredAddressDto,
    description:
      'A structured query: the parts of an address as fields, any subset, at least one; instead of query or beside ' +
      'it (a name, searched with the address). Each part is read at its own level only, and the search falls back ' +
      'by parts as for text (docs/api.md, "Structured queries").',
  })
  @ValidateIf(given('address'))
  @IsObject({ message: objectMessage('address', '{ housenumber?, street?, city?, postcode?, region?, country? }') })
  @Validate(AddressPartsConstraint)
  @ValidateNested()
  @Type(() => StructuredAddressDto)
  address?: StructuredAddressDto;

  // ValidateIf instead of IsOptional: absent means default, but an explicit null is an error.
  @ApiPropertyOptional({
    type: 'integer',
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

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: COUNT_CAP,
    default: 1,
    example: 1,
    description: `Page number, 1-based; page * limit must be at most ${COUNT_CAP}.`,
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

  @ApiPropertyOptional({
    ...CALENDAR_DATE_SCHEMA,
    description: 'Capture date on or after (inclusive), YYYY-MM-DD.',
    example: '2020-01-01',
  })
  @ValidateIf(given('captured_after'))
  @Validate(CalendarDateConstraint)
  captured_after?: string;

  @ApiPropertyOptional({
    ...CALENDAR_DATE_SCHEMA,
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
    description: `Only the newest record of each spot and direction: a record is left out when another within ${HISTORY_DISTANCE_M} m looking the same way (the rule of include history) is newer. A street driven every year then fills a page with places, not years. Not on a distributed (Citus) catalogue.`,
    example: true,
  })
  @ValidateIf(given('newest_per_spot'))
  @IsBoolean({ message: 'newest_per_spot must be true or false' })
  newest_per_spot?: boolean;

  @ApiPropertyOptional({
    enum: COMPASS_POINTS,
    description:
      "Heading in that sector of the 8-point rose (the response's compass sectors). Not together with heading.",
    example: 'NW',
  })
  @ValidateIf(given('facing'))
  @IsIn(COMPASS_POINTS, { message: `facing must be one of ${COMPASS_POINTS.join(', ')}` })
  facing?: CompassPoint;

  @ApiPropertyOptional({
    type: () => HeadingRangeDto,
    description: 'Heading range in degrees. Not together with facing.',
  })
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
    type: 'string',
    maxLength: REGION_MAX_LENGTH,
    pattern: '^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$',
    description:
      'Only imagery in this country (ISO 3166-1 alpha-2, "LI") or first-level region (ISO 3166-2, "US-CA"), by the place ' +
      'hierarchy: the region of the locality each record lies in or is nearest to. The response names it in region and ' +
      'region_id. An unknown code is 400.',
    example: 'US-CA',
  })
  @ValidateIf(given('region'))
  @Validate(RegionCodeConstraint)
  region?: string;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: LANG_MAX_LENGTH,
    pattern: LANG_PATTERN,
    description:
      'The language to write place labels, recovered addresses and region names in: a BCP 47 tag ("de", "pt-BR", ' +
      '"zh-Hant"). Without it, the Accept-Language header decides; with neither, they are as stored. Names come from ' +
      "the places' names by language (OpenStreetMap name:xx), countries from CLDR, regions from iso3166-2-db; a part " +
      "with no name in the language stays as stored. A record's own address is never rewritten.",
    example: 'de',
  })
  @ValidateIf(given('lang'))
  @Validate(LanguageTagConstraint)
  lang?: string;

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
    maxItems: INCLUDES.length,
    uniqueItems: true,
    default: [],
    description: 'Opt-in detail: adds exactly the named fields to the response.',
    example: ['total', 'interpretation'],
  })
  @ValidateIf(given('include'))
  @Validate(IncludeConstraint)
  include?: IncludeName[];
}
