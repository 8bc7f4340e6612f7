import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { RequestException, RequestExceptionCode } from '../../common/app-exception';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ApiSignatureQuery, imageCacheControl, SIGNATURE_PARAMETER, signatureMatches } from './image-signature';
import { ApiErrorResponse, ApiInternalErrorResponse } from '../../common/error-response.dto';
import { IMAGE_VARIANTS, ImageVariant } from '../store/image-store';
import { DERIVATIVE_SIZES } from '../store/photo-derivatives';
import { ImagesService } from './images.service';
import { UUID } from '../../common/uuid';

const FILE = new RegExp(`^(${IMAGE_VARIANTS.join('|')})\\.jpg$`);

// A photo's stored images at stable URLs: public (they work in an <img> tag), immutable (a URL's bytes
// never change: the id is made from the content), with a strong ETag and byte ranges.
export const IMAGE_CACHE_CONTROL = imageCacheControl(undefined);

@ApiTags('images')
@Controller('images')
export class ImagesController {
  constructor(
    private readonly images: ImagesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':id/:file')
  @ApiOperation({
    operationId: 'image',
    summary: "A photo record's image: a derivative or the original",
    description: `The \`image\` of a record made from a photo is its \`sd.jpg\`. \`thumb\`, \`sd\` and \`hd\` are at most ${DERIVATIVE_SIZES.thumb}, ${DERIVATIVE_SIZES.sd} and ${DERIVATIVE_SIZES.hd} px on the long side (never enlarged), upright, without any metadata; \`original\` is the camera file as imported. No key. Byte ranges (\`Range\`) and \`If-None-Match\` are answered.`,
  })
  @ApiParam({
    name: 'id',
    description: 'the record id',
    schema: { type: 'string', format: 'uuid', maxLength: 36, pattern: UUID.source },
  })
  @ApiParam({ name: 'file', schema: { type: 'string', enum: IMAGE_VARIANTS.map((v) => `${v}.jpg`) } })
  @ApiSignatureQuery()
  @ApiProduces('image/jpeg')
  @ApiOkResponse({
    description: 'A JPEG image',
    schema: { type: 'string', format: 'binary' },
    headers: {
      ETag: { schema: { type: 'string' } },
      'Cache-Control': { schema: { type: 'string', example: IMAGE_CACHE_CONTROL } },
      'Accept-Ranges': { schema: { type: 'string', example: 'bytes' } },
    },
  })
  @ApiResponse({ status: 206, description: 'The byte range asked for' })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrorResponse(404, 'No photo record with this id, or no such image of it', { NOT_FOUND: 'No such image' })
  @ApiErrorResponse(416, 'A byte range outside the image', { RANGE_NOT_SATISFIABLE: 'Range not satisfiable' })
  @ApiInternalErrorResponse()
  async image(
    @Param('id') id: string,
    @Param('file') file: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const variant = FILE.exec(file)?.[1] as ImageVariant | undefined;
    const secret = this.config.imageUrlSecret;
    // A private image without its signature is as unknown as a missing one (nothing says it exists).
    const allowed =
      UUID.test(id) && variant && (!secret || signatureMatches(id, req.query[SIGNATURE_PARAMETER], secret));
    const image = allowed ? await this.images.find(id.toLowerCase(), variant) : null;
    if (!image) throw new RequestException(RequestExceptionCode.NOT_FOUND, 'No such image');

    const ranges = req.headers.range ? req.range(image.size, { combine: true }) : undefined;
    if (ranges === -1) {
      res.setHeader('Content-Range', `bytes */${image.size}`);
      throw new RequestException(RequestExceptionCode.RANGE_NOT_SATISFIABLE, 'Range not satisfiable');
    }
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', imageCacheControl(secret));
    res.setHeader('ETag', `"${image.hash.slice(0, 32)}-${variant}"`);
    res.setHeader('Accept-Ranges', 'bytes');
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    // A malformed Range header is ignored (RFC 9110); several ranges are answered with the first.
    const range = Array.isArray(ranges) && ranges.type === 'bytes' ? ranges[0] : undefined;
    if (range) {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${image.size}`);
    }
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : image.size));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // A client that goes away ends the read; nothing is left to answer then.
    await pipeline(image.read(range), res).catch(() => undefined);
  }
}
