import { Controller, Get, Header, Param } from '@nestjs/common';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import { DemoImageService } from './demo-image.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Controller('demo-images')
export class DemoImageController {
  constructor(private readonly demoImages: DemoImageService) {}

  @Get(':file')
  @Header('Content-Type', 'image/svg+xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  async image(@Param('file') file: string): Promise<string> {
    const id = file.replace(/\.svg$/, '');
    const svg = UUID.test(id) ? await this.demoImages.render(id.toLowerCase()) : null;
    if (!svg) throw new RequestException(RequestExceptionCode.NOT_FOUND, 'No such demo image');
    return svg;
  }
}
