import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import { ApiErrorResponse } from '../common/error-response.dto';
import { DemoImageService } from './demo-image.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@ApiTags('demo')
@Controller('demo-images')
export class DemoImageController {
  constructor(private readonly demoImages: DemoImageService) {}

  @Get(':file')
  @Header('Content-Type', 'image/svg+xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  @ApiOperation({ operationId: 'demoImage', summary: 'Placeholder image drawn for a demo-seed record' })
  @ApiParam({ name: 'file', description: '{record id}.svg', example: 'a0000000-0000-4000-8000-000000000035.svg' })
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({ description: 'An SVG image', schema: { type: 'string' } })
  @ApiErrorResponse(404, 'No such record', { NOT_FOUND: 'No such demo image' })
  async image(@Param('file') file: string): Promise<string> {
    const id = file.replace(/\.svg$/, '');
    const svg = UUID.test(id) ? await this.demoImages.render(id.toLowerCase()) : null;
    if (!svg) throw new RequestException(RequestExceptionCode.NOT_FOUND, 'No such demo image');
    return svg;
  }
}
