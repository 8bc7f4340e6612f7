import type { IncomingMessage } from 'node:http';

// The route template that handled a request ('/demo-images/:file'), never the raw path, so metric
// labels stay few; requests refused before routing (unknown paths, bad bodies) are 'unmatched'.
export function routeOf(req: IncomingMessage): string {
  const { route, baseUrl } = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  return typeof route?.path === 'string' ? `${baseUrl ?? ''}${route.path}` : 'unmatched';
}
