import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ERROR_CACHE_CONTROL, errorBody, RequestException, RequestExceptionCode } from '../common/app-exception';

// What the page @nestjs/swagger builds loads (its HTML, its generated init script and four files of
// swagger-ui-dist). Everything else in that package (package.json, source maps, README, the stock
// Petstore swagger-initializer.js) would otherwise be served too, since the whole directory is static.
const PAGE = new Set(['/', '']);
const FILES = new Set([
  '/swagger-ui-init.js',
  '/swagger-ui.css',
  '/swagger-ui-bundle.js',
  '/swagger-ui-standalone-preset.js',
  '/favicon-32x32.png',
  '/favicon-16x16.png',
]);
// @nestjs/swagger answers /docs/index.html with links relative to /docs (./docs/...), which break there.
const INDEX_HTML = '/index.html';

// Mounted at the docs path, before SwaggerModule.setup: an allow-list, so new files in a later
// swagger-ui-dist are not published by accident. Paths are compared as sent (package%2Ejson is not listed).
export function swaggerUiFiles(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (PAGE.has(req.path) || FILES.has(req.path)) return next();
    if (req.path === INDEX_HTML) return res.redirect(301, './');
    const notFound = new RequestException(RequestExceptionCode.NOT_FOUND, 'No such route');
    res
      .status(notFound.status)
      .set('Cache-Control', ERROR_CACHE_CONTROL)
      .type('application/json')
      .json(errorBody(notFound));
  };
}
