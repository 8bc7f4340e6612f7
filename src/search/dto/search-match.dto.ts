import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const MATCH_KINDS = [
  'exact',
  'prefix',
  'partial',
  'corrected',
  'nearby',
  'fallback',
  'filter',
  'fallback_street',
  'fallback_postcode',
  'fallback_locality',
  'fallback_region',
  'fallback_country',
] as const;

export class WordCorrectionDto {
  @ApiProperty({ description: 'The word as typed (folded)', example: 'herrengase' })
  from: string;

  @ApiProperty({ description: 'The word searched for it', example: 'herrengasse' })
  to: string;
}

// Opt-in `match`: how one record matched the query (see docs/api.md, "How sure an answer is").
export class RecordMatchDto {
  @ApiProperty({
    enum: MATCH_KINDS,
    description:
      'exact: every word is in the address; prefix: the last word only as the start of one; partial: some words are not ' +
      '(unmatched); corrected: found after misspelt words were corrected (corrections); nearby: near the place named ' +
      '(place, distance_m) or the point searched; fallback: the addresses most similar to the query, a guess; filter: no ' +
      'query, the record passes the filters; fallback_street, fallback_postcode, fallback_locality, fallback_region, ' +
      'fallback_country: the finer parts of the query (unmatched) found nothing, and the record is of the coarser part ' +
      'it names at that level (place)',
    example: 'exact',
  })
  kind: (typeof MATCH_KINDS)[number];

  @ApiPropertyOptional({ type: () => [WordCorrectionDto], description: 'corrected: the words corrected' })
  corrections?: WordCorrectionDto[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string' },
    description:
      'partial, fallback: the query words (folded) the address does not hold; fallback_*: the words of the finer parts that found nothing',
    example: ['li'],
  })
  unmatched?: string[];

  @ApiPropertyOptional({
    description: 'nearby: the label of the place named; fallback_*: the label of the place the coarser part names',
    example: 'Vaduz, Liechtenstein',
  })
  place?: string;

  @ApiPropertyOptional({
    minimum: 0,
    description:
      'nearby: metres from the place named or the point searched (sphere), to 0.1 m; fallback_*: the same, when the ' +
      'place has no imagery of its own and the imagery nearest it answers',
    example: 84.2,
  })
  distance_m?: number;
}
