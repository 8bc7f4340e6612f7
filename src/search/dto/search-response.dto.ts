import { CameraDto, SequencePlaceDto } from '../../photos/photo-includes';
import { HistoryEntryDto } from '../answer/record-history';
import { HISTORY_ANGLE_DEG, HISTORY_DISTANCE_M, HISTORY_MAX } from '../sql/record-history.sql';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IncludeName } from './search-filters.dto';
import { COUNT_CAP } from '../paging/search-limits';
import { LIMIT_MAX } from './search-request.dto';
import { SearchInterpretationDto } from './search-interpretation.dto';
import { RecordMatchDto } from './search-match.dto';

// Response classes (not interfaces) so the OpenAPI document describes them. The pattern repeats the
// uuid format because validators commonly skip formats.
const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
export const OPT_IN = (name: IncludeName) => `Only with include: ["${name}"].`;

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

// Where a place lies below its country, by kind, from OpenStreetMap's place=* nodes and areas.
export class PlaceHierarchyDto {
  @ApiPropertyOptional({ description: 'place=neighbourhood', example: 'Obere Au' })
  neighbourhood?: string;

  @ApiPropertyOptional({ description: 'place=quarter', example: 'Ebenholz' })
  quarter?: string;

  @ApiPropertyOptional({ description: 'place=hamlet or isolated_dwelling', example: 'Silum' })
  hamlet?: string;

  @ApiPropertyOptional({ description: 'place=suburb', example: 'Mühleholz' })
  suburb?: string;

  @ApiPropertyOptional({ description: 'place=village', example: 'Steg' })
  village?: string;

  @ApiPropertyOptional({ description: 'place=city_district, district or borough', example: 'Altstadt' })
  district?: string;

  @ApiPropertyOptional({ description: 'place=city or town', example: 'Vaduz' })
  city?: string;
}

// Opt-in `place`: the place a record was found through (a place the query named), or else the place
// its address comes from or the locality it lies in.
export class MatchedPlaceDto {
  @ApiProperty({ format: 'uuid', pattern: UUID_PATTERN, example: '5b1f0c8e-2d3a-5e4f-9a8b-7c6d5e4f3a2b' })
  id: string;

  @ApiProperty({ enum: ['country', 'region', 'locality', 'postcode', 'street', 'address', 'poi'], example: 'address' })
  kind: string;

  @ApiProperty({ example: 'Herrengasse 35, 9490 Vaduz, Liechtenstein' })
  label: string;

  @ApiProperty({ minimum: -90, maximum: 90, example: 47.1391 })
  lat: number;

  @ApiProperty({ minimum: -180, maximum: 180, example: 9.5209 })
  lon: number;

  @ApiProperty({
    minimum: 0,
    description: 'Metres from the record to the place point (sphere), to 0.1 m',
    example: 12.4,
  })
  distance_m: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 180,
    description:
      "Address places only: degrees between the record's heading and the bearing to the address (0 faces it); absent at the point itself and for a record without a heading",
    example: 8.5,
  })
  bearing_offset_deg?: number;

  @ApiPropertyOptional({
    type: () => PlaceHierarchyDto,
    description:
      "The places the place lies in, by kind (OpenStreetMap imports: each kind's smallest place=* area around it, else its nearest place=* node within the kind's reach in the same municipality); absent where none is known",
  })
  hierarchy?: PlaceHierarchyDto;
}

export class ImageryRecordDto {
  @ApiProperty({ format: 'uuid', pattern: UUID_PATTERN, example: 'a0000000-0000-4000-8000-000000000035' })
  id: string;

  @ApiProperty({ example: 'Herrengasse 35, 9490 Vaduz' })
  address: string;

  @ApiProperty({
    description: 'Capture date as stored (no time-zone shift), "Month day, year"',
    example: 'September 10, 2015',
  })
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

  @ApiProperty({
    format: 'uri',
    pattern: '^https?://',
    description: 'Absolute image URL',
    example: 'https://img.example.com/herrengasse-35.jpg',
  })
  image: string;

  // Opt-in (include); never present by default.
  @ApiPropertyOptional({
    description: `The capture instant in ISO 8601 with its offset for a record made from a photo (\`2018-06-08T13:24:10-07:00\`), else the capture date (YYYY-MM-DD). ${OPT_IN('captured_at')}`,
    example: '2015-09-10',
  })
  captured_at?: string;

  @ApiPropertyOptional({
    type: () => CameraDto,
    nullable: true,
    description: `The camera and photo a record was made from; null for a record not made from a photo. ${OPT_IN('camera')}`,
  })
  camera?: CameraDto | null;

  @ApiPropertyOptional({
    type: () => SequencePlaceDto,
    nullable: true,
    description: `The record's place in the sequence of photos it was taken in (the records before and after it in capture order), for walking along the street; null for a record not made from a photo. ${OPT_IN('sequence')}`,
  })
  sequence?: SequencePlaceDto | null;

  @ApiPropertyOptional({
    type: () => [HistoryEntryDto],
    maxItems: HISTORY_MAX,
    description: `Every other date at this spot: the other records taken within ${HISTORY_DISTANCE_M} m and looking the same way (headings within ${HISTORY_ANGLE_DEG} degrees; a panorama looks every way), newest first, at most ${HISTORY_MAX}. ${OPT_IN('history')}`,
  })
  history?: HistoryEntryDto[];

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 360,
    type: Number,
    nullable: true,
    description: `Heading in degrees as stored (0 <= h < 360); null for a record without one (a photo that gave no direction), which faces nothing. ${OPT_IN('heading')}`,
    example: 273.1,
  })
  heading?: number | null;

  @ApiPropertyOptional({
    minimum: 0,
    description: `Metres from the search point on the sphere, to 0.1 m; only when a point is known. ${OPT_IN('distance_m')}`,
    example: 42.5,
  })
  distance_m?: number;

  @ApiPropertyOptional({
    description: `Relevance (text) or closeness in [0, 1] (no text). ${OPT_IN('score')}`,
    example: 1.025,
  })
  score?: number;

  @ApiPropertyOptional({
    type: () => MatchedPlaceDto,
    description: `The place the record matched, or else the place it belongs to. ${OPT_IN('place')}`,
  })
  place?: MatchedPlaceDto;

  @ApiPropertyOptional({
    type: () => RecordMatchDto,
    description: `How the record matched the query: exact, prefix, partial, corrected, nearby, fallback or filter. ${OPT_IN('match')}`,
  })
  match?: RecordMatchDto;
}

@ApiExtraModels(SearchInterpretationDto)
export class SearchResponseDto {
  @ApiProperty({ enum: [true], example: true })
  isSuccess: true;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The requested page, echoed', example: 1 })
  page: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'ceil(total matches / limit); 0 when nothing matched',
    example: 1,
  })
  pageTotal: number;

  @ApiProperty({
    type: () => [ImageryRecordDto],
    maxItems: LIMIT_MAX,
    description: 'Ordered by the sort, ending with the id; empty past the last page',
  })
  data: ImageryRecordDto[];

  @ApiProperty({
    format: 'uuid',
    pattern: UUID_PATTERN,
    description:
      'UUID v5 of the normalized request (query, limit, filters, non-default sort): the same on every page of one search',
    example: '3f1c2b9e-5d7a-5e4b-9c1d-2a3b4c5d6e7f',
  })
  result_id: string;

  @ApiProperty({ description: 'The name of the requested region, or "global" without one', example: 'global' })
  region: string;

  // Not enum: [null]: validators such as Prism's fail to compile it and then silently skip the whole body.
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: null,
    description: 'The requested region\'s ISO code ("LI", "US-CA"); null without one',
  })
  region_id: string | null;

  // Opt-in (include); never present by default.
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: `Number of matches, counted up to ${COUNT_CAP}; with total_exact false, a lower bound: never above what exists. ${OPT_IN('total')}`,
    example: 4,
  })
  total?: number;

  @ApiPropertyOptional({
    description: `false when total is a lower bound: counting stopped at the cap (a nearest-first search around a point counts a few pages past the page), or the matches were not counted (a single word known to match far more, ranked lists, pinned places); more pages may follow. ${OPT_IN('total')}`,
    example: true,
  })
  total_exact?: boolean;

  // Written as {type: object, nullable: true, allOf: [$ref]}: OpenAPI 3.0 ignores nullable beside a bare
  // $ref and honours it only beside a type, and null is a real answer here.
  @ApiPropertyOptional({
    type: () => SearchInterpretationDto,
    nullable: true,
    description: `How query was read; null without a query. ${OPT_IN('interpretation')}`,
  })
  interpretation?: SearchInterpretationDto | null;
}
