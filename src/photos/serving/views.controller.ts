import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequestException, RequestExceptionCode } from '../../common/app-exception';
import {
  ApiErrorResponse,
  ApiInternalErrorResponse,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
} from '../../common/error-response.dto';
import { ClientAddressRateLimit } from '../../rate-limit/client-address-rate-limit.guard';
import { DEFAULT_FLAT_FOV } from './view-source';
import { parseViewQuery, VIEW_LIMITS } from './view-parameters';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ApiSignatureQuery, imageCacheControl, SIGNATURE_PARAMETER, signatureMatches } from './image-signature';
import { IMAGE_CACHE_CONTROL } from './images.controller';
import { ViewsService } from './views.service';
import { UUID } from '../../common/uuid';

const angleQuery = (name: 'heading' | 'pitch' | 'fov', description: string) =>
  ApiQuery({
    name,
    required: false,
    description,
    schema: {
      type: 'number',
      minimum: VIEW_LIMITS[name].min,
      maximum: VIEW_LIMITS[name].max,
      ...('default' in VIEW_LIMITS[name] ? { default: VIEW_LIMITS[name].default } : {}),
    },
  });
const pixelQuery = (name: 'width' | 'height') =>
  ApiQuery({
    name,
    required: false,
    description: `${name} of the view, pixels`,
    schema: {
      type: 'integer',
      format: 'int32',
      minimum: VIEW_LIMITS[name].min,
      maximum: VIEW_LIMITS[name].max,
      default: VIEW_LIMITS[name].default,
    },
  });

// A rendered view of a photo, at a stable URL: public and immutable as the stored images are (its bytes
// are fixed by the photo's content and the normal form of its parameters, which its ETag is made from).
// Registered before ImagesController (photos.module.ts), whose /images/{id}/{file} would take view.jpg.
@ApiTags('images')
@Controller('images')
export class ViewsController {
  constructor(
    private readonly views: ViewsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':id/view.jpg')
  @ClientAddressRateLimit({ name: 'views', perMinute: (config) => config.viewsPerMinute })
  @ApiOperation({
    operationId: 'imageView',
    summary: 'A rendered view of a photo: what a camera at its position sees at a heading, pitch and field of view',
    description: `A rectilinear (pinhole camera) view: of a 360 image in any direction; of a flat photo within what it shows (its heading, pitch 0, the field of view of its 35 mm equivalent focal length, else ${DEFAULT_FLAT_FOV}°), black beyond its edges, and 404 when the view's centre is outside it. Without \`heading\` the view faces the photo's own heading. Angles are kept to a tenth of a degree. No key; limited per client address (VIEWS_PER_MINUTE). Cached (on disk, VIEW_CACHE_MB) and immutable; \`If-None-Match\` is answered.`,
  })
  @ApiParam({
    name: 'id',
    description: 'the record id',
    schema: { type: 'string', format: 'uuid', maxLength: 36, pattern: UUID.source },
  })
  @angleQuery('heading', "compass degrees of the view's centre (0 and 360: north); default: the photo's heading")
  @angleQuery('pitch', "degrees above the horizon of the view's centre")
  @angleQuery('fov', 'horizontal field of view, degrees')
  @pixelQuery('width')
  @pixelQuery('height')
  @ApiSignatureQuery()
  @ApiProduces('image/jpeg')
  @ApiOkResponse({
    description: 'A JPEG image of width x height pixels',
    schema: { type: 'string', format: 'binary' },
    headers: {
      ETag: { schema: { type: 'string' } },
      'Cache-Control': { schema: { type: 'string', example: IMAGE_CACHE_CONTROL } },
      ...RATE_LIMIT_HEADERS,
    },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrorResponse(
    400,
    'A parameter out of its range, not a number, given twice, or unknown',
    { INVALID_REQUEST: 'fov must be a number from 10 to 120 (degrees)' },
    RATE_LIMIT_HEADERS,
  )
  @ApiErrorResponse(
    404,
    'No photo record with this id, a heading asked of a photo whose heading is not known, or a direction a flat photo does not show',
    { NOT_FOUND: 'No such image' },
    RATE_LIMIT_HEADERS,
  )
  @ApiErrorResponse(
    429,
    'Too many requests from this client address',
    { RATE_LIMITED: 'Too many requests from this address (600 per minute); retry in 42 s' },
    { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
  )
  @ApiErrorResponse(
    503,
    "The record's stored image is missing or damaged on disk (logged for the operator)",
    { IMAGE_UNREADABLE: 'The stored image of this record cannot be read' },
    RATE_LIMIT_HEADERS,
  )
  @ApiInternalErrorResponse()
  async view(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const secret = this.config.imageUrlSecret;
    const { [SIGNATURE_PARAMETER]: signature, ...parameters } = query;
    if (!UUID.test(id) || (secret && !signatureMatches(id, signature, secret)))
      throw new RequestException(RequestExceptionCode.NOT_FOUND, 'No such image');
    const view = await this.views.prepare(id.toLowerCase(), parseViewQuery(parameters));
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', imageCacheControl(secret));
    res.setHeader('ETag', view.etag);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    const bytes = await view.bytes();
    res.setHeader('Content-Length', String(bytes.length));
    res.end(req.method === 'HEAD' ? undefined : bytes);
  }
}
