import { Controller, Get, Header, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../api-key/api-key.openapi';
import { ApiKeyGuard } from '../api-key/api-key.guard';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import {
  ApiErrorResponse,
  ApiInternalErrorResponse,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
} from '../common/error-response.dto';
import { KeyQuotaGuard } from '../rate-limit/key-quota.guard';
import { RECORD_INCLUDES, RecordIncludeName, RecordLookupService } from './record-lookup.service';
import { ImageryRecordDto } from './dto/search-response.dto';
import { UUID } from '../common/uuid';

const NOT_FOUND = 'No record with this id';

@ApiTags('images')
@Controller('images')
export class RecordController {
  constructor(private readonly records: RecordLookupService) {}

  @Get(':id')
  @UseGuards(ApiKeyGuard, KeyQuotaGuard)
  // An answer for a key's holder only, and one an import may change: no shared cache keeps it.
  @Header('Cache-Control', 'private, no-cache')
  @ApiOperation({
    operationId: 'record',
    summary: 'One record by its id',
    description:
      "The record as POST /search gives it (the contract's fields), plus what `include` asks for: a comma-separated list of " +
      `${RECORD_INCLUDES.join(', ')}. A sequence's previous and next ids are read here.`,
  })
  @ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid', maxLength: 36, pattern: UUID.source } })
  @ApiQuery({
    name: 'include',
    required: false,
    description: `Comma-separated: ${RECORD_INCLUDES.join(', ')}`,
    schema: { type: 'string', maxLength: 200, pattern: '^[a-z_]+(,[a-z_]+)*$', example: 'sequence,camera' },
  })
  @ApiKeyAuth()
  @ApiOkResponse({ type: ImageryRecordDto, headers: RATE_LIMIT_HEADERS })
  @ApiErrorResponse(
    400,
    'An include that is not known',
    {
      INVALID_REQUEST: {
        message: 'include has an unknown name',
        details: [
          { field: 'include', message: `include must be a comma-separated list of ${RECORD_INCLUDES.join(', ')}` },
        ],
      },
    },
    RATE_LIMIT_HEADERS,
  )
  @ApiErrorResponse(404, NOT_FOUND, { NOT_FOUND }, RATE_LIMIT_HEADERS)
  @ApiInternalErrorResponse()
  @ApiErrorResponse(
    503,
    'The database cannot be reached',
    { DATABASE_UNAVAILABLE: 'The database is unavailable; retry shortly' },
    RETRY_AFTER_HEADER,
  )
  async record(@Param('id') id: string, @Query('include') include: unknown): Promise<ImageryRecordDto> {
    const names = includeNames(include);
    const record = UUID.test(id) ? await this.records.record(id.toLowerCase(), names) : null;
    if (!record) throw new RequestException(RequestExceptionCode.NOT_FOUND, NOT_FOUND);
    return record;
  }
}

// `?include=a,b`: each name one of RECORD_INCLUDES; given once (a repeated parameter is refused).
function includeNames(include: unknown): RecordIncludeName[] {
  if (include === undefined || include === '') return [];
  const allowed = `include must be a comma-separated list of ${RECORD_INCLUDES.join(', ')}`;
  const refuse = (message: string) =>
    new RequestException(RequestExceptionCode.INVALID_REQUEST, message, [{ field: 'include', message: allowed }]);
  if (typeof include !== 'string' || include.length > 200) throw refuse('include must be given once, as text');
  const names = include.split(',').map((n) => n.trim());
  const unknown = names.find((n) => !(RECORD_INCLUDES as readonly string[]).includes(n));
  if (unknown !== undefined) throw refuse(`include has an unknown name: ${JSON.stringify(unknown.slice(0, 40))}`);
  return [...new Set(names as RecordIncludeName[])];
}
