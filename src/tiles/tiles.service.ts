import { Inject, Injectable } from '@nestjs/common';
import { API_KEY_HEADER } from '../api-key/api-key.guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { MAX_ZOOM } from './tile-limits';
import { TilesException, TilesExceptionCode } from './tiles.exception';
import { TilesRepository } from './tiles.repository';
import type { TileAddress } from './tiles.sql';

// Changes when the tiles' layers or attributes change (a new release), so no browser keeps a tile of
// the old layout under an unchanged data version.
const TILE_FORMAT = 'lis2';

export interface TileAnswer {
  etag: string;
  /** null: the client's copy is current (304). An empty buffer: nothing lies in the tile (204). */
  body: Buffer | null;
  cacheControl: string;
  /** A request header the answer depends on (a shared cache keeps one copy per value). */
  vary?: string;
}

// The rules of GET /tiles/{z}/{x}/{y}.mvt (docs/map-tiles.md): which tiles exist, the ETag from the
// map's data version, and whether the client's copy is current.
@Injectable()
export class TilesService {
  constructor(
    private readonly repository: TilesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** z 0..20, x and y 0..2^z-1, y written with `.mvt`; anything else names the parameter. */
  parseAddress(z: string, x: string, y: string): TileAddress {
    const zoom = integer('z', z, MAX_ZOOM);
    const last = 2 ** zoom - 1;
    if (!/\.mvt$/.test(y)) invalid('y', 'must be written {y}.mvt');
    return { z: zoom, x: integer('x', x, last), y: integer('y', y.replace(/\.mvt$/, ''), last) };
  }

  async tile(address: TileAddress, ifNoneMatch: string | undefined): Promise<TileAnswer> {
    const etag = `"${TILE_FORMAT}-${await this.repository.dataVersion()}"`;
    if (matches(ifNoneMatch, etag)) return { etag, body: null, ...this.caching() };
    return { etag, body: await this.repository.tile(address), ...this.caching() };
  }

  // A public tile may be kept by any cache. One that needs a key is its holder's: a shared cache (a
  // CDN, a proxy) must not hand it to whoever asks next, and a browser keeps it per key.
  private caching(): Pick<TileAnswer, 'cacheControl' | 'vary'> {
    const maxAge = this.config.tilesMaxAgeSeconds;
    if (this.config.tilesRequireKey) return { cacheControl: `private, max-age=${maxAge}`, vary: API_KEY_HEADER };
    return { cacheControl: `public, max-age=${maxAge}` };
  }
}

function integer(field: string, raw: string, max: number): number {
  if (!/^\d{1,7}$/.test(raw)) invalid(field, `must be a whole number from 0 to ${max}`);
  const value = Number(raw);
  if (value > max) invalid(field, `must be a whole number from 0 to ${max}${field === 'z' ? '' : ' at this zoom'}`);
  return value;
}

function invalid(field: string, message: string): never {
  throw new TilesException(TilesExceptionCode.INVALID_TILE, `${field} ${message}`, [{ field, message }]);
}

// If-None-Match: a list of ETags (weak ones compare equal, RFC 9110 13.1.2) or *.
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
