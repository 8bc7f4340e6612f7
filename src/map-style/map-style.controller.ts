import { Controller, Get, Header, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import type { Response } from 'express';
import { fontstackOf, glyphRange, glyphRoot, rangeStart } from './glyph-files';
import { mapStyle } from './map-style';

// The style and the glyphs change only with a new release of the service.
const STYLE_CACHE = 'public, max-age=3600';
const GLYPHS_CACHE = 'public, max-age=86400';

// The map's style and fonts, for the page (GET /) and any MapLibre client: no key, like the page's
// other files. Not the API: left out of the OpenAPI document.
@ApiExcludeController()
@Controller('map')
export class MapStyleController {
  private readonly style = mapStyle();
  private readonly glyphs = glyphRoot();

  @Get('style.json')
  @Header('Cache-Control', STYLE_CACHE)
  styleJson(): StyleSpecification {
    return this.style;
  }

  @Get('fonts/:fontstack/:range.pbf')
  async font(
    @Param('fontstack') fontstack: string,
    @Param('range') range: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const stack = fontstackOf(fontstack);
    const start = rangeStart(range);
    const body = await glyphRange(this.glyphs, stack, start);
    res.set('Cache-Control', GLYPHS_CACHE);
    // A Buffer returned as it is would be sent as JSON.
    return new StreamableFile(body, { type: 'application/x-protobuf' });
  }
}
