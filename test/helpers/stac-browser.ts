import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import * as tar from 'tar';

// STAC Browser (radiantearth/stac-browser 5.1.0-rc.1), the client people browse STAC APIs with, built
// once from the vendored source (shared/vendor/stac/README.md: its dependencies from npm, then vite) and
// served as a static site whose runtime configuration names the catalogue. The build is kept per machine
// (STAC_BROWSER_CACHE, default ~/.cache/location-imagery-search) under the hash of the source and of this
// file (the recipe), as Docker keeps the tier's images: a fresh clone on the same machine reuses it, and
// a changed source or recipe builds again.
const ROOT = resolve(__dirname, '..', '..');
const TARBALL =
  process.env.STAC_BROWSER_SOURCE ??
  join(ROOT, '..', 'shared', 'vendor', 'stac', 'stac-browser', 'stac-browser-080bddf.tar.gz');
const STAC_MIGRATE = '2.1.0';
const CATALOGUE_URL = '/stac';

function cacheDir(): string {
  const hash = createHash('sha256').update(readFileSync(TARBALL)).update(readFileSync(__filename)).digest('hex');
  const base = process.env.STAC_BROWSER_CACHE ?? join(homedir(), '.cache', 'location-imagery-search');
  return join(base, `stac-browser-${hash.slice(0, 16)}`);
}

function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<void> {
  return new Promise((done, fail) => {
    // As from a plain shell: not jest's NODE_ENV=test (vite builds another bundle with it), nor the
    // npm_* settings of the npm that started jest.
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (!/^(npm_|NODE_ENV$|JEST_)/i.test(name)) env[name] = value;
    }
    Object.assign(env, extra);
    execFile(command, args, { cwd, env, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, _out, stderr) =>
      error ? fail(new Error(`${command} ${args.join(' ')}: ${stderr.slice(-2000) || error.message}`)) : done(),
    );
  });
}

/** The built site's folder, building it first when the cache holds none (a few minutes). */
export async function stacBrowserSite(): Promise<string> {
  if (!existsSync(TARBALL)) throw new Error(`No STAC Browser source at ${TARBALL} (set STAC_BROWSER_SOURCE)`);
  const cache = cacheDir();
  const dist = join(cache, 'dist');
  const stamp = join(dist, '.built');
  if (existsSync(stamp)) return dist;
  // Built outside node_modules: vite leaves the sources of a project under a node_modules path untransformed.
  const work = mkdtempSync(join(tmpdir(), 'lis-stac-browser-'));
  rmSync(cache, { recursive: true, force: true });
  await tar.x({ file: TARBALL, cwd: work });
  // The lock file names @radiantearth/stac-migrate 2.1.1, which the registry reachable here does not serve.
  const manifest = JSON.parse(readFileSync(join(work, 'package.json'), 'utf8'));
  manifest.dependencies['@radiantearth/stac-migrate'] = STAC_MIGRATE;
  writeFileSync(join(work, 'package.json'), JSON.stringify(manifest, null, 2));
  rmSync(join(work, 'package-lock.json'), { force: true });
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], work);
  // The catalogue on the site's own origin (serveStacBrowser passes /stac on to the API): STAC Browser
  // takes its catalogUrl at build time only.
  await run('npx', ['vite', 'build', '--logLevel', 'error'], work, { SB_catalogUrl: CATALOGUE_URL });
  cpSync(join(work, 'dist'), dist, { recursive: true });
  rmSync(work, { recursive: true, force: true });
  writeFileSync(stamp, new Date().toISOString());
  return dist;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Serves the site on 127.0.0.1, and passes /stac requests on to the API at `api()` (the Host kept: its links stay here). */
export async function serveStacBrowser(site: string, api: () => string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // STAC Browser's own pages have the API's paths too: a page load (it asks for HTML) is the site's.
    const toApi = !(req.headers.accept ?? '').includes('text/html');
    if (toApi && (path === '/stac' || path.startsWith('/stac/'))) {
      const target = new URL(req.url ?? '/', api());
      const upstream = request(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    const file = normalize(join(site, decodeURIComponent(path)));
    // The app's own routes (history mode, no file extension) are its index page; a missing file is a
    // 404, which STAC Browser expects of the optional files it probes (a locale's config.json).
    const route = extname(file) === '';
    if (!file.startsWith(site) || (!route && !existsSync(file))) {
      res.writeHead(404).end();
      return;
    }
    const target = route ? join(site, 'index.html') : file;
    res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream' });
    res.end(readFileSync(target));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
