import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Extension } from '@electric-sql/pglite';
import * as tar from 'tar';

// PGlite loads an extension by unpacking its whole bundle into memory and compiling every library in it
// before the first query. @electric-sql/pglite-postgis ships PostGIS with raster, topology, the TIGER
// geocoder and upgrade scripts, of which the service uses one library (postgis-3), one install script and
// PROJ's data: the rest was most of a CLI's memory (docs/operations.md#memory has the figures). The
// bundle is cut to what the service uses, once per package version, and kept in the cache beside the
// built-in database's template; where nothing can be written, the package's own is used.

// The package exports no package.json: its entry point lies in dist/, beside the bundle.
const PACKAGE_DIST = dirname(require.resolve('@electric-sql/pglite-postgis'));
const FULL_BUNDLE = join(PACKAGE_DIST, 'postgis.tar.gz');
const CACHE_DIR = resolve(__dirname, '..', '..', '..', 'node_modules', '.cache', 'location-imagery-search');
const WASM_PREFIX = '/pglite'; // where PGlite unpacks bundles (pglite-postgis's own setup says the same)

/** What the service needs of the bundle: the PostGIS library, its extension's install files, PROJ's data. */
export function keptInBundle(path: string): boolean {
  const file = path.replace(/^\.\//, '');
  if (file === 'lib/postgresql/postgis-3.so' || file.startsWith('share/proj/')) return true;
  const extension = /^share\/postgresql\/extension\/(postgis(?:--[^/]*)?\.(?:control|sql))$/.exec(file);
  // Upgrade scripts (`--ANY--`, `--unpackaged`) only serve ALTER EXTENSION UPDATE, which the service never runs.
  return extension !== null && !/--ANY--|unpackaged/.test(extension[1]);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_DIST, '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** The cut bundle's path, made on first use (written beside it and renamed, so a reader never sees half). */
export async function postgisCoreBundle(cacheDir = CACHE_DIR): Promise<string> {
  const target = join(cacheDir, `postgis-${packageVersion()}-core-v2.tar.gz`);
  if (existsSync(target)) return target;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'lis-postgis-'));
  try {
    await tar.x({ file: FULL_BUNDLE, cwd: work, filter: keptInBundle });
    const partial = `${target}.${process.pid}.partial`;
    await tar.c({ gzip: true, file: partial, cwd: work, portable: true }, ['lib', 'share']);
    renameSync(partial, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * PostGIS for PGlite from the cut bundle. `compileOnFirstUse`: libraries are compiled when first loaded,
 * not when the bundle is unpacked (`noWasmDecoding`), so a process that never touches a geometry never
 * compiles PostGIS; the server compiles on open instead, so that no request waits for it.
 */
export async function postgisExtension(compileOnFirstUse: boolean): Promise<Extension> {
  const bundle = await postgisCoreBundle().catch(() => FULL_BUNDLE);
  return {
    name: 'postgis',
    setup: async (_pg, emscriptenOpts: Record<string, unknown> & { PGLITE_ENV: Record<string, unknown> }) => {
      emscriptenOpts.PGLITE_ENV.PROJ_DATA = `${WASM_PREFIX}/share/proj`;
      if (compileOnFirstUse) emscriptenOpts.noWasmDecoding = true;
      return { emscriptenOpts, bundlePath: pathToFileURL(bundle) };
    },
  };
}
