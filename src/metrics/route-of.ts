import type { IncomingMessage } from 'node:http';

// The route template that handled a request ('/demo-images/:file'), never the raw path, so metric
// labels stay few. Requests refused before routing (bad bodies) and Nest's catch-all not-found
// route ('/{*path}') are 'unmatched'.
export function routeOf(req: IncomingMessage): string {
  const { route, baseUrl } = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  if (typeof route?.path !== 'string' || route.path.includes('*')) return 'unmatched';
  return `${baseUrl ?? ''}${route.path}`;
}
