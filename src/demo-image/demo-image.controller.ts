import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import {
  ApiErrorResponse,
  ApiInternalErrorResponse,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
} from '../common/error-response.dto';
import { ClientAddressRateLimit } from '../rate-limit/client-address-rate-limit.guard';
import { DemoImageService } from './demo-image.service';
import { UUID } from '../common/uuid';

@ApiTags('demo')
@Controller('demo-images')
export class DemoImageController {
  constructor(private readonly demoImages: DemoImageService) {}

  @Get(':file')
  @ClientAddressRateLimit({ name: 'demo-images', perMinute: (config) => config.demoImagesPerMinute })
  @Header('Content-Type', 'image/svg+xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  @ApiOperation({
    operationId: 'demoImage',
    summary: 'Placeholder image drawn for a demo-seed record',
    description:
      'The image URL of demo-seed records. No key; any other record is 404. Limited per client address (DEMO_IMAGES_PER_MINUTE).',
  })
  @ApiParam({
    name: 'file',
    description: '{record id}.svg',
    // UUID (above), in any case (OpenAPI patterns have no flags); anything else is 404.
    schema: {
      type: 'string',
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\.svg$',
      maxLength: 40,
    },
    example: 'a0000000-0000-4000-8000-000000000035.svg',
  })
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({
    description: 'An SVG image',
    schema: { type: 'string', maxLength: 4096 },
    headers: RATE_LIMIT_HEADERS,
  })
  @ApiErrorResponse(404, 'No demo-seed record with this id', { NOT_FOUND: 'No such demo image' }, RATE_LIMIT_HEADERS)
  @ApiErrorResponse(
    429,
    'Too many requests from this client address',
    { RATE_LIMITED: 'Too many requests from this address (300 per minute); retry in 42 s' },
    { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
  )
  @ApiInternalErrorResponse()
  async image(@Param('file') file: string): Promise<string> {
    const id = file.replace(/\.svg$/, '');
    const svg = UUID.test(id) ? await this.demoImages.render(id.toLowerCase()) : null;
    if (!svg) throw new RequestException(RequestExceptionCode.NOT_FOUND, 'No such demo image');
    return svg;
  }
}
