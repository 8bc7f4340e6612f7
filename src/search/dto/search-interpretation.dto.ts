import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WordCorrectionDto } from './search-match.dto';

export class NamedRegionDto {
  @ApiProperty({ description: 'ISO 3166-1 alpha-2 or ISO 3166-2 code', example: 'LI' })
  code: string;

  @ApiProperty({ example: 'Liechtenstein' })
  name: string;
}

export class InterpretedPlaceDto {
  @ApiProperty({ format: 'uuid', example: '5b1f0c8e-2d3a-5e4f-9a8b-7c6d5e4f3a2b' })
  id: string;

  @ApiProperty({ enum: ['country', 'region', 'locality', 'postcode', 'street', 'address', 'poi'], example: 'locality' })
  kind: string;

  @ApiProperty({ example: 'Vaduz, Liechtenstein' })
  label: string;
}

// In `interpretation`, when a coarser part of the query answered (fallback by parts).
export class FallbackDto {
  @ApiProperty({
    enum: ['street', 'postcode', 'locality', 'region', 'country'],
    description: 'The level of the part that answered',
    example: 'locality',
  })
  level: 'street' | 'postcode' | 'locality' | 'region' | 'country';

  @ApiProperty({
    type: [String],
    description: 'The words (folded) of the finer parts, which found nothing',
    example: ['fakestrasse', '12'],
  })
  unmatched: string[];
}

// In `interpretation`, when nothing lies within the radius of the query's point.
export class NearestImageryDto {
  @ApiProperty({
    minimum: 0,
    description: "Metres from the query's point to the nearest record (sphere), to 0.1 m",
    example: 402.3,
  })
  distance_m: number;

  @ApiProperty({ minimum: -90, maximum: 90, description: "The nearest record's point", example: 34.0731 })
  lat: number;

  @ApiProperty({ minimum: -180, maximum: 180, description: "The nearest record's point", example: -118.3981 })
  lon: number;
}

// Opt-in `interpretation`: how the query text was read.
export class SearchInterpretationDto {
  @ApiProperty({ enum: ['text', 'coordinates', 'plus_code', 'location_code'], example: 'text' })
  kind: 'text' | 'coordinates' | 'plus_code' | 'location_code';

  @ApiProperty({
    description: 'The words searched (text), lat,lon (coordinates), the full plus code, or the location code',
    example: 'herrengasse 35 vaduz',
  })
  normalized: string;

  @ApiPropertyOptional({
    minimum: -90,
    maximum: 90,
    description: 'The point searched around (coordinates, plus_code, or text: a name beside coordinates)',
    example: 47.14,
  })
  lat?: number;

  @ApiPropertyOptional({
    minimum: -180,
    maximum: 180,
    description: 'The point searched around (coordinates, plus_code, or text: a name beside coordinates)',
    example: 9.52,
  })
  lon?: number;

  @ApiPropertyOptional({
    minimum: 0,
    description:
      "Metres searched around the point (coordinates, plus_code): 250, a coarse plus code's area, or near.radius_m; " +
      "text beside coordinates: what the coordinates' precision leaves open",
    example: 250,
  })
  radius_m?: number;

  // Same nullable form as interpretation itself (see SearchResponseDto).
  @ApiPropertyOptional({
    type: () => NearestImageryDto,
    nullable: true,
    description:
      'Only when nothing lies within radius_m of the point (coordinates, plus_code): the nearest record the other filters let ' +
      'through, looked for among the 1,000 records nearest the point; null when none of them does.',
  })
  nearest?: NearestImageryDto | null;

  @ApiPropertyOptional({
    description: 'Text: the search step that answered (docs/api.md, "How a query is read")',
    example: 'full-text',
  })
  step?: string;

  @ApiPropertyOptional({
    description:
      'Text: how the full-text statement of the step that answered read its page, when it ran one: sorted, ranked, ' +
      'ranked-lists or head-and-tail, with +within-region, +pinned and +citus for the facets that changed it ' +
      '(docs/api.md, "The text search, step by step"); for diagnosis, it never changes the answer',
    example: 'head-and-tail',
  })
  page_strategy?: string;

  @ApiPropertyOptional({
    description:
      'Text: true when the answer is not the words as typed: misspelt words corrected, imagery near the place named, ' +
      'or the addresses most similar to the query',
    example: false,
  })
  approximate?: boolean;

  @ApiPropertyOptional({
    type: () => NamedRegionDto,
    description:
      'Text: the country or region the query names at its end ("Vaduz, Liechtenstein", "Tulsa, OK"); the search kept to it',
  })
  named_region?: NamedRegionDto;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Text: the categories of place the query names, as OpenStreetMap tags, when the answer is the imagery at ' +
      'their points of interest (step named-category)',
    example: ['tourism=hotel'],
  })
  categories?: string[];

  @ApiPropertyOptional({ type: () => [WordCorrectionDto], description: 'Text: the words corrected, when any were' })
  corrections?: WordCorrectionDto[];

  @ApiPropertyOptional({
    type: [String],
    description:
      'Text: the words of the query that shaped nothing of this page, when there are any: no record holds them in its ' +
      'address, and they name no region, category or place the answer went through (folded, as typed)',
    example: ['kebab'],
  })
  ignored?: string[];

  @ApiPropertyOptional({
    type: () => FallbackDto,
    description:
      'Text: the finer parts of the query found nothing and a coarser part answered (steps fallback-street, ' +
      'fallback-locality, fallback-region); place is the place of that part',
  })
  fallback?: FallbackDto;

  @ApiPropertyOptional({
    type: () => InterpretedPlaceDto,
    description: 'Text: the place the query was read as naming (the best of them), when it names one',
  })
  place?: InterpretedPlaceDto;
}
