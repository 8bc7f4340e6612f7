import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

// Helmet's security headers, configured once for every response: the app's middleware, and the
// answers Node's HTTP parser makes us write straight to the socket (see http-server-limits.ts).
// Self-hosted deployments often serve plain HTTP; upgrading the docs' asset requests would break them.
// Image URLs from search results (demo images) are meant to be embedded by other origins.
function helmetMiddleware(): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}

let recorded: Array<[string, string]> | undefined;

// The headers helmet sets, taken from helmet itself so the two never differ. Helmet only sets (and
// removes) headers, synchronously and the same for every request, so a recording stand-in suffices.
function helmetHeaders(): Array<[string, string]> {
  if (recorded === undefined) {
    const headers: Array<[string, string]> = [];
    const recorder = {
      setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
      removeHeader: () => undefined,
    };
    helmetMiddleware()({} as never, recorder as never, () => undefined);
    recorded = headers;
  }
  return recorded;
}

// One loop over the recorded headers rather than helmet's chain of eleven middlewares per request
// (docs/benchmarks.md#fig-security-headers).
export function securityHeaders(): (req: Request, res: Response, next: NextFunction) => void {
  const headers = helmetHeaders();
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

let raw: string | undefined;

// The same headers as raw HTTP header lines ("Name: value\r\n"...).
export function rawSecurityHeaderLines(): string {
  raw ??= helmetHeaders()
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return raw;
}
