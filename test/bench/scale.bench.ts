// `npm run bench:scale -- --url http://localhost:8080 --key lis_...`: searches per second against a
// running deployment (the compose scale profile's load balancer, or one instance's port), with the demo
// dataset loaded. Bodies cycle through demo city names and ZIP codes, so caches do not answer everything.
// Used for the table in docs/scaling.md; the key needs a rate limit above the load (keys create --rate-limit).
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const HELP = `usage: npm run bench:scale -- --url URL --key KEY [--duration S] [--connections N] [--bodies N]
  --url URL          the deployment (default http://localhost:8080, the scale profile's load balancer)
  --key KEY          an API key whose rate limit is above the load
  --duration S       seconds of load after a 3 s warm-up (default 20)
  --connections N    concurrent connections (default 16)
  --bodies N         different search bodies, cycled (default 200)`;

function bodies(count: number): string[] {
  // Every US ZIP code record of the demo data has a city and a ZIP: half by name, half by ZIP code.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS data without types
  const zipcodes = require('zipcodes') as { codes: Record<string, { zip: string; city: string; state: string }> };
  const places = Object.values(zipcodes.codes);
  const step = Math.max(1, Math.floor(places.length / count));
  return Array.from({ length: count }, (_, i) => {
    const p = places[(i * step) % places.length];
    return JSON.stringify({ query: i % 2 === 0 ? `${p.city}, ${p.state}` : p.zip, limit: 10 });
  });
}

async function load(url: string, key: string, seconds: number, connections: number, list: string[]) {
  let next = 0;
  return autocannon({
    url: `${url}/search`,
    method: 'POST',
    connections,
    duration: seconds,
    timeout: 10,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    requests: [{ setupRequest: (req) => ({ ...req, body: list[next++ % list.length] }) }],
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://localhost:8080' },
      key: { type: 'string' },
      duration: { type: 'string', default: '20' },
      connections: { type: 'string', default: '16' },
      bodies: { type: 'string', default: '200' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.key) {
    console.log(HELP);
    process.exit(values.help ? 0 : 2);
  }
  const list = bodies(Number(values.bodies));
  await load(values.url!, values.key, 3, Number(values.connections), list);
  const r = await load(values.url!, values.key, Number(values.duration), Number(values.connections), list);
  const errors = r.errors + r.timeouts + r.non2xx;
  console.log(
    JSON.stringify({
      url: values.url,
      connections: Number(values.connections),
      seconds: Number(values.duration),
      searchesPerSecond: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      failed: errors,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
