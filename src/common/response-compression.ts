import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';

// Responses under this are sent as they are. A TCP connection's first round trip carries about 14 KB
// (an initial window of 10 segments), so compressing a smaller response saves no round trip, and it
// costs server CPU on every request (docs/benchmarks.md#fig-compression-threshold). Larger pages (up
// to 100 records, `include` fields) and the OpenAPI document are still compressed.
export const COMPRESSION_THRESHOLD_BYTES = 8 * 1024;

// Responses compressed for clients that ask (Accept-Encoding). compression wraps every response's
// writes and negotiates when the first is made; a request without Accept-Encoding can only be
// answered as it is, so it skips all of that (docs/benchmarks.md#fig-compression-negotiation). Such a
// response carries no `Vary: Accept-Encoding`: a cache may hand it to anyone, as any client accepts it.
// compression's own filter passes only the types the MIME database calls compressible; these protobufs
// are left out there and shrink well: vector tiles (docs/map-tiles.md) and the map's glyph ranges
// (SDF bitmaps) alike.
const ALSO_COMPRESSED = /^application\/(vnd\.mapbox-vector-tile|x-protobuf)\b/;

export function responseCompression(): (req: Request, res: Response, next: NextFunction) => void {
  const compress = compression({ threshold: COMPRESSION_THRESHOLD_BYTES, filter: compressible });
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}

// compression's own rule (text, JSON, GeoJSON, ...), and the protobufs above.
function compressible(req: Request, res: Response): boolean {
  return compression.filter(req, res) || ALSO_COMPRESSED.test(String(res.getHeader('Content-Type') ?? ''));
}
