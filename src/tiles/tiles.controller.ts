import { Controller, Get, Headers, Param, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { TilesAccessGuard } from './tiles-access.guard';
import { ApiTile, MVT_CONTENT_TYPE } from './tiles.openapi';
import { TilesService } from './tiles.service';

@ApiTags('tiles')
@Controller('tiles')
export class TilesController {
  constructor(private readonly tiles: TilesService) {}

  // 200 with the tile, 204 when nothing lies in it, 304 when the client's copy is current.
  @Get(':z/:x/:y')
  @UseGuards(TilesAccessGuard)
  @ApiTile()
  async tile(
    @Param('z') z: string,
    @Param('x') x: string,
    @Param('y') y: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const answer = await this.tiles.tile(this.tiles.parseAddress(z, x, y), ifNoneMatch);
    res.setHeader('ETag', answer.etag);
    res.setHeader('Cache-Control', answer.cacheControl);
    if (answer.vary) res.vary(answer.vary);
    if (answer.body === null) {
      res.status(304).end();
    } else if (answer.body.length === 0) {
      res.status(204).end();
    } else {
      res.status(200).type(MVT_CONTENT_TYPE).send(answer.body);
    }
  }
}
