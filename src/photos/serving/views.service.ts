import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { LRUCache } from 'lru-cache';
import { sharp } from '../image-library';
import {
  AppException,
  RequestException,
  RequestExceptionCode,
  ServerException,
  ServerExceptionCode,
} from '../../common/app-exception';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { PhotosRepository, ViewablePhoto } from '../photos.repository';
import { IMAGE_STORE, ImageStore, ImageVariant } from '../store/image-store';
import { DERIVATIVE_QUALITY } from '../store/photo-derivatives';
import { normalHeading, ViewQuery } from './view-parameters';
import { onImage, PhotoProjection, photoPoint, RawImage, ViewAngles } from './view-projection';
import { bandOf, bandProjection, decodeBand, wholeImage } from './panorama-band';
import { renderRows } from './view-render';
import { ViewCache } from './view-cache';
import { DecodedPhotoCache, WHOLE } from './decoded-photo-cache';
import { decode, EXIF_RANGE, flatFov, focal35mmOf, projectionOf, sourceFor, uprightSize } from './view-source';
import { IMAGE_LOOKUP_CACHE_MS } from './images.service';

// A rendered view of a photo (GET /images/{id}/view.jpg): the photo looked up (cached as image URLs are),
// the view's parameters made whole (the photo's own heading when none is asked for), a flat photo's
// coverage checked, then the view from the disk cache, or rendered (at most RENDER_CONCURRENCY at once,
// one render for requests of the same view at the same time) and cached. A render decodes the photo's
// source image (of a panorama, the band of rows the view needs), or takes its pixels from the memory
// cache of recently decoded photos (VIEW_PIXELS_MB).

/** Views rendered at once per process (each holds a decoded photo and takes a core). */
export const RENDER_CONCURRENCY = 2;
/** Rows rendered between two turns of the event loop (a few milliseconds at 1024 px wide). */
const RENDER_SLICE_ROWS = 32;
/** Bumped when rendering changes: every view's ETag and cache key change with it. */
const RENDER_VERSION = 1;

export interface PreparedView {
  etag: string;
  bytes(): Promise<Buffer>;
}

@Injectable()
export class ViewsService {
  private readonly photos = new LRUCache<string, ViewablePhoto & { fov: number }>({
    max: 10_000,
    ttl: IMAGE_LOOKUP_CACHE_MS,
  });
  private readonly rendering = new Map<string, Promise<Buffer>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private readonly cache: ViewCache;
  private readonly decoded: DecodedPhotoCache;
  private readonly logger = new Logger('Views');

  constructor(
    private readonly repository: PhotosRepository,
    @Inject(IMAGE_STORE) private readonly store: ImageStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cache = new ViewCache(`${config.imageStoreDir}/views`, config.viewCacheMb * 1024 * 1024);
    this.decoded = new DecodedPhotoCache(config.viewPixelsMb * 1024 * 1024);
  }

  /** The view of this photo record, or a 404 saying why there is none. */
  async prepare(id: string, query: ViewQuery): Promise<PreparedView> {
    const photo = await this.photo(id);
    if (!photo) throw notFound('No such image');
    if (query.heading !== undefined && photo.headingOrigin === 'none') {
      throw notFound(
        "The photo's heading is not known (no compass, track or pose heading): leave out heading to see its own view",
      );
    }
    const angles: ViewAngles = {
      heading: query.heading ?? normalHeading(photo.heading),
      pitch: query.pitch,
      fov: query.fov,
    };
    const projection = projectionOf(photo, photo.fov);
    if (projection.kind === 'perspective') covers(projection, photo, angles);
    const size = { width: query.width, height: query.height };
    const normal = `${RENDER_VERSION}/${photo.contentHash}/${angles.heading}/${angles.pitch}/${angles.fov}/${size.width}x${size.height}`;
    const key = createHash('sha256').update(normal).digest('hex');
    return {
      etag: `"${photo.contentHash.slice(0, 32)}-view-${key.slice(0, 20)}"`,
      bytes: async () => (await this.cache.get(key)) ?? (await this.once(key, photo, projection, angles, size)),
    };
  }

  private async photo(id: string): Promise<(ViewablePhoto & { fov: number }) | null> {
    const cached = this.photos.get(id);
    if (cached) return cached;
    const photo = await this.repository.findViewable(id);
    if (!photo) return null;
    const fov =
      photo.projection === 'perspective'
        ? flatFov(uprightSize(photo), await focal35mmOf(this.store.read(photo.contentHash, 'original', EXIF_RANGE)))
        : 0;
    const found = { ...photo, fov };
    this.photos.set(id, found);
    return found;
  }

  private once(
    key: string,
    photo: ViewablePhoto,
    projection: PhotoProjection,
    angles: ViewAngles,
    size: { width: number; height: number },
  ): Promise<Buffer> {
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = this.limited(() => this.render(photo, projection, angles, size))
        .then(async (jpeg) => {
          await this.cache.put(key, jpeg);
          return jpeg;
        })
        .finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    return pending;
  }

  private async render(
    photo: ViewablePhoto,
    projection: PhotoProjection,
    angles: ViewAngles,
    size: { width: number; height: number },
  ): Promise<Buffer> {
    const { image, drawn } = await this.decodedFor(photo, projection, angles, size);
    // In slices of rows, between which the event loop runs (a whole render is tens of milliseconds of
    // arithmetic, which would hold every other request up).
    const raw = Buffer.alloc(size.width * size.height * image.channels);
    for (let from = 0; from < size.height; from += RENDER_SLICE_ROWS) {
      renderRows(image, drawn, angles, size, raw, { from, to: Math.min(size.height, from + RENDER_SLICE_ROWS) });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return sharp(raw, { raw: { width: size.width, height: size.height, channels: image.channels as 1 | 3 } })
      .jpeg({ quality: DERIVATIVE_QUALITY })
      .toBuffer();
  }

  /**
   * The pixels a view is drawn from, and their projection: a panorama's band of the rows the view needs
   * (panorama-band.ts), a flat photo (or an original EXIF turns) whole; from memory when kept.
   */
  private async decodedFor(
    photo: ViewablePhoto,
    projection: PhotoProjection,
    angles: ViewAngles,
    size: { width: number; height: number },
  ): Promise<{ image: RawImage; drawn: PhotoProjection }> {
    const source = sourceFor(photo, projection, angles, size);
    const key = `${photo.contentHash}/${source.variant}`;
    const read = () => this.read(photo.contentHash, source.variant);
    try {
      return await this.decodedPixels(key, read, photo, projection, angles, size, source.variant);
    } catch (error) {
      if (error instanceof AppException) throw error;
      // A file gone or damaged on disk: said once per render, the client told it is the server's.
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(`Stored image ${photo.contentHash} (${source.variant}) unreadable: ${reason}`);
      throw new ServerException(ServerExceptionCode.IMAGE_UNREADABLE, 'The stored image of this record cannot be read');
    }
  }

  private async decodedPixels(
    key: string,
    read: () => Promise<Buffer>,
    photo: ViewablePhoto,
    projection: PhotoProjection,
    angles: ViewAngles,
    size: { width: number; height: number },
    variant: ImageVariant,
  ): Promise<{ image: RawImage; drawn: PhotoProjection }> {
    const turned = variant === 'original' && photo.orientation !== null && photo.orientation !== 1;
    if (projection.kind !== 'equirectangular' || turned) {
      const image = await this.decoded.get(key, WHOLE, async () => wholeImage(await decode(await read())));
      return { image, drawn: projection };
    }
    const band = await this.decoded.get(key, bandOf(projection, angles, size), async (span) =>
      decodeBand(await read(), span),
    );
    return { image: band, drawn: bandProjection(projection, band) };
  }

  /** A stored image's bytes; the original when a derivative is missing. */
  private async read(hash: string, variant: ImageVariant): Promise<Buffer> {
    const stored = variant !== 'original' && (await this.store.has(hash, variant)) ? variant : 'original';
    return buffer(this.store.read(hash, stored));
  }

  private async limited<T>(task: () => Promise<T>): Promise<T> {
    // A finished render hands its slot to the next one waiting.
    if (this.running >= RENDER_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

function notFound(message: string): RequestException {
  return new RequestException(RequestExceptionCode.NOT_FOUND, message);
}

/** A flat photo's view must face a direction the photo shows; 404 with what it covers otherwise. */
function covers(
  projection: Extract<PhotoProjection, { kind: 'perspective' }>,
  photo: ViewablePhoto,
  angles: ViewAngles,
) {
  const size = uprightSize(photo);
  if (onImage(projection, size, photoPoint(projection, size, angles.heading, angles.pitch))) return;
  const half = projection.fov / 2;
  const vertical = (Math.atan((size.height / size.width) * Math.tan((half * Math.PI) / 180)) * 180) / Math.PI;
  const from = normalHeading(projection.heading - half);
  const to = normalHeading(projection.heading + half);
  throw notFound(
    `The photo does not show heading ${angles.heading}, pitch ${angles.pitch}: it covers headings ${from} to ${to} and pitches ${-Math.round(vertical * 10) / 10} to ${Math.round(vertical * 10) / 10} (a flat photo)`,
  );
}
