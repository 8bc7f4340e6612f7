import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';

// Responses compressed for clients that ask (Accept-Encoding). compression wraps every response's
// writes and negotiates when the first is made; a request without Accept-Encoding can only be
// answered as it is, so it skips all of that (measured in docs/benchmarks.md, ninth round). Such a
// response carries no `Vary: Accept-Encoding`: a cache may hand it to anyone, as any client accepts it.
export function responseCompression(): (req: Request, res: Response, next: NextFunction) => void {
  const compress = compression();
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}
