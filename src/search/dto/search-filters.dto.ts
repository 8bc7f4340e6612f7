import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DEFAULT_FIELD_OF_VIEW_DEG } from '../../common/facing';
import {
  IsNumber,
  Max,
  Min,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { CALENDAR_DATE, isCalendarDate } from '../../common/calendar-date';
import { regionByCode } from '../../places/regions';

export const RADIUS_DEFAULT_M = 250;
export const RADIUS_MIN_M = 1;
export const RADIUS_MAX_M = 50_000;
export const FOV_DEFAULT_DEG = DEFAULT_FIELD_OF_VIEW_DEG;
export const COMPASS_POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export const SORTS = ['relevance', 'distance', 'newest', 'oldest'] as const;
export const INCLUDES = [
  'captured_at',
  'heading',
  'distance_m',
  'score',
  'total',
  'interpretation',
  'place',
  'match',
  'camera',
  'sequence',
  'history',
] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];
export type SortOrder = (typeof SORTS)[number];
export type IncludeName = (typeof INCLUDES)[number];

const FINITE = { allowNaN: false, allowInfinity: false };
const latMessage = (field: string) => `${field}.lat must be a number between -90 and 90`;
const lonMessage = (field: string) => `${field}.lon must be a number between -180 and 180`;
const radiusMessage = (field: string) =>
  `${field}.radius_m must be a number of metres between ${RADIUS_MIN_M} and ${RADIUS_MAX_M}`;

// `near: { lat, lon, radius_m? }`: only imagery within radius_m metres of the point. With coordinates
// or a plus code as the query, `{ radius_m }` alone is the radius around that point (see planSearch).
export class NearDto {
  @ApiPropertyOptional({
    minimum: -90,
    maximum: 90,
    example: 47.14,
    description: 'required unless query is coordinates or a plus code',
  })
  @ValidateIf((o: NearDto) => o.lat !== undefined || o.lon !== undefined)
  @IsNumber(FINITE, { message: latMessage('near') })
  @Min(-90, { message: latMessage('near') })
  @Max(90, { message: latMessage('near') })
  lat?: number;

  @ApiPropertyOptional({
    minimum: -180,
    maximum: 180,
    example: 9.52,
    description: 'required unless query is coordinates or a plus code',
  })
  @ValidateIf((o: NearDto) => o.lat !== undefined || o.lon !== undefined)
  @IsNumber(FINITE, { message: lonMessage('near') })
  @Min(-180, { message: lonMessage('near') })
  @Max(180, { message: lonMessage('near') })
  lon?: number;

  @ApiPropertyOptional({
    minimum: RADIUS_MIN_M,
    maximum: RADIUS_MAX_M,
    default: RADIUS_DEFAULT_M,
    example: 500,
    description: 'metres',
  })
  @ValidateIf((o: NearDto) => o.radius_m !== undefined)
  @IsNumber(FINITE, { message: radiusMessage('near') })
  @Min(RADIUS_MIN_M, { message: radiusMessage('near') })
  @Max(RADIUS_MAX_M, { message: radiusMessage('near') })
  radius_m: number = RADIUS_DEFAULT_M;
}

// `looking_at: { lat, lon, fov_deg?, radius_m? }`: imagery within radius_m of the target whose
// heading points at it within fov_deg / 2; 360-degree (interactive) imagery always qualifies.
export class LookingAtDto {
  @ApiProperty({ minimum: -90, maximum: 90, example: 47.1392, description: 'the target' })
  @IsNumber(FINITE, { message: latMessage('looking_at') })
  @Min(-90, { message: latMessage('looking_at') })
  @Max(90, { message: latMessage('looking_at') })
  lat!: number;

  @ApiProperty({ minimum: -180, maximum: 180, example: 9.5227, description: 'the target' })
  @IsNumber(FINITE, { message: lonMessage('looking_at') })
  @Min(-180, { message: lonMessage('looking_at') })
  @Max(180, { message: lonMessage('looking_at') })
  lon!: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 360,
    default: FOV_DEFAULT_DEG,
    example: 60,
    description: 'field of view in degrees',
  })
  @ValidateIf((o: LookingAtDto) => o.fov_deg !== undefined)
  @IsNumber(FINITE, { message: 'looking_at.fov_deg must be a number of degrees between 1 and 360' })
  @Min(1, { message: 'looking_at.fov_deg must be a number of degrees between 1 and 360' })
  @Max(360, { message: 'looking_at.fov_deg must be a number of degrees between 1 and 360' })
  fov_deg: number = FOV_DEFAULT_DEG;

  @ApiPropertyOptional({
    minimum: RADIUS_MIN_M,
    maximum: RADIUS_MAX_M,
    default: RADIUS_DEFAULT_M,
    example: 120,
    description: 'metres from the target',
  })
  @ValidateIf((o: LookingAtDto) => o.radius_m !== undefined)
  @IsNumber(FINITE, { message: radiusMessage('looking_at') })
  @Min(RADIUS_MIN_M, { message: radiusMessage('looking_at') })
  @Max(RADIUS_MAX_M, { message: radiusMessage('looking_at') })
  radius_m: number = RADIUS_DEFAULT_M;
}

const HEADING_MESSAGE = (bound: string) => `heading.${bound} must be a number of degrees between 0 and 360`;

// `heading: { min, max }` in degrees, both inclusive; min > max wraps through north (350..10).
export class HeadingRangeDto {
  @ApiProperty({
    minimum: 0,
    maximum: 360,
    example: 350,
    description: 'degrees, inclusive; min > max wraps through north',
  })
  @IsNumber(FINITE, { message: HEADING_MESSAGE('min') })
  @Min(0, { message: HEADING_MESSAGE('min') })
  @Max(360, { message: HEADING_MESSAGE('min') })
  min!: number;

  @ApiProperty({ minimum: 0, maximum: 360, example: 10, description: 'degrees, inclusive' })
  @IsNumber(FINITE, { message: HEADING_MESSAGE('max') })
  @Min(0, { message: HEADING_MESSAGE('max') })
  @Max(360, { message: HEADING_MESSAGE('max') })
  max!: number;
}

// [minLon, minLat, maxLon, maxLat] (GeoJSON order). minLon > maxLon is a box across the antimeridian
// (RFC 7946, 5.2): [170, -20, -170, -10] covers 170..180 and -180..-170.
@ValidatorConstraint({ name: 'bbox' })
export class BboxConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return bboxProblem(value) === null;
  }
  defaultMessage(args: ValidationArguments): string {
    return bboxProblem(args.value) ?? 'bbox is invalid';
  }
}

export function bboxProblem(value: unknown): string | null {
  const shape = 'bbox must be an array of 4 numbers [minLon, minLat, maxLon, maxLat]';
  if (!Array.isArray(value) || value.length !== 4) return shape;
  if (!value.every((v) => typeof v === 'number' && Number.isFinite(v))) return shape;
  const [minLon, minLat, maxLon, maxLat] = value as number[];
  if ([minLon, maxLon].some((v) => v < -180 || v > 180)) return 'bbox longitudes must be between -180 and 180';
  if ([minLat, maxLat].some((v) => v < -90 || v > 90)) return 'bbox latitudes must be between -90 and 90';
  if (minLat >= maxLat) return 'bbox minLat must be less than maxLat';
  if (minLon === maxLon)
    return 'bbox minLon must differ from maxLon (minLon > maxLon means the box crosses the antimeridian)';
  return null;
}

// How the OpenAPI document describes what CalendarDateConstraint accepts.
export const CALENDAR_DATE_SCHEMA = {
  type: 'string',
  format: 'date',
  pattern: CALENDAR_DATE.source,
  minLength: 10,
  maxLength: 10,
} as const;

// ISO calendar dates, YYYY-MM-DD, that exist (no 2023-02-30).
@ValidatorConstraint({ name: 'calendarDate' })
export class CalendarDateConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return isCalendarDate(value);
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be a calendar date YYYY-MM-DD`;
  }
}

@ValidatorConstraint({ name: 'dateOrder' })
export class DateOrderConstraint implements ValidatorConstraintInterface {
  validate(before: unknown, args: ValidationArguments): boolean {
    const after = (args.object as { captured_after?: unknown }).captured_after;
    if (!isCalendarDate(before) || !isCalendarDate(after)) return true; // the date rules report those
    return (after as string) <= (before as string);
  }
  defaultMessage(): string {
    return 'captured_before must not be earlier than captured_after';
  }
}

@ValidatorConstraint({ name: 'facingOrHeading' })
export class FacingOrHeadingConstraint implements ValidatorConstraintInterface {
  validate(_: unknown, args: ValidationArguments): boolean {
    const o = args.object as { facing?: unknown; heading?: unknown };
    return o.facing === undefined || o.heading === undefined;
  }
  defaultMessage(): string {
    return 'give either facing or heading, not both';
  }
}

@ValidatorConstraint({ name: 'include' })
export class IncludeConstraint implements ValidatorConstraintInterface {
  // Each name at most once: a repeat is a client mistake worth naming, and it bounds the array.
  validate(value: unknown): boolean {
    return (
      Array.isArray(value) &&
      value.length <= INCLUDES.length &&
      value.every((v) => INCLUDES.includes(v)) &&
      new Set(value).size === value.length
    );
  }
  defaultMessage(args: ValidationArguments): string {
    const allowed = INCLUDES.join(', ');
    if (!Array.isArray(args.value) || args.value.length > 2 * INCLUDES.length) {
      return `include must be an array of names from: ${allowed}, each at most once`;
    }
    const names = args.value as unknown[];
    const unknown = names.filter((v) => !INCLUDES.includes(v as IncludeName));
    if (unknown.length > 0) {
      return `include has unknown name${unknown.length > 1 ? 's' : ''} ${unknown.map((v) => JSON.stringify(v)).join(', ')}; allowed: ${allowed}`;
    }
    const repeated = [...new Set(names.filter((v, i) => names.indexOf(v) !== i))];
    return `include names ${repeated.map((v) => JSON.stringify(v)).join(', ')} more than once; give each name at most once`;
  }
}

// `region`: an ISO 3166-1 alpha-2 country ("LI") or ISO 3166-2 first-level region ("US-CA") code.
export const REGION_MAX_LENGTH = 6;
@ValidatorConstraint({ name: 'region' })
export class RegionCodeConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length <= REGION_MAX_LENGTH && regionByCode(value) !== undefined;
  }
  defaultMessage(args: ValidationArguments): string {
    const shape = 'an ISO 3166-1 alpha-2 country code ("LI") or an ISO 3166-2 region code ("US-CA")';
    if (typeof args.value !== 'string') return `region must be ${shape}`;
    return `region ${JSON.stringify(args.value.slice(0, 20))} is not a known code; region must be ${shape}`;
  }
}
