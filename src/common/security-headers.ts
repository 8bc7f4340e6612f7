import helmet from 'helmet';

// Helmet's security headers, configured once for every response: the app's middleware, and the
// answers Node's HTTP parser makes us write straight to the socket (see http-server-limits.ts).
// Self-hosted deployments often serve plain HTTP; upgrading the docs' asset requests would break them.
// Image URLs from search results (demo images) are meant to be embedded by other origins.
export function securityHeaders(): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}

let raw: string | undefined;

// The same headers as raw HTTP header lines ("Name: value\r\n"...), taken from helmet itself so the two
// never differ. Helmet only sets (and removes) headers, synchronously, so a recording stand-in suffices.
export function rawSecurityHeaderLines(): string {
  if (raw === undefined) {
    const headers: Array<[string, string]> = [];
    const recorder = {
      setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
      removeHeader: () => undefined,
    };
    securityHeaders()({} as never, recorder as never, () => undefined);
    raw = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  }
  return raw;
}
