import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const MATCH_KINDS = ['exact', 'prefix', 'partial', 'corrected', 'nearby', 'fallback', 'filter'] as const;

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
      'query, the record passes the filters',
    example: 'exact',
  })
  kind: (typeof MATCH_KINDS)[number];

  @ApiPropertyOptional({ type: () => [WordCorrectionDto], description: 'corrected: the words corrected' })
  corrections?: WordCorrectionDto[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string' },
    description: 'partial, fallback: the query words (folded) the address does not hold',
    example: ['li'],
  })
  unmatched?: string[];

  @ApiPropertyOptional({ description: 'nearby: the label of the place named', example: 'Vaduz, Liechtenstein' })
  place?: string;

  @ApiPropertyOptional({
    minimum: 0,
    description: 'nearby: metres from the place named or the point searched (sphere), to 0.1 m',
    example: 84.2,
  })
  distance_m?: number;
}
