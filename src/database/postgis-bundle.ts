import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Extension } from '@electric-sql/pglite';
import * as tar from 'tar';

// PGlite loads an extension by unpacking its whole bundle into memory (several copies on the way) and
// compiling every library in it before the first query. @electric-sql/pglite-postgis ships PostGIS with
// raster, topology, the TIGER geocoder and upgrade scripts, of which the service uses one library
// (postgis-3), one install script and PROJ's data. So the service unpacks only those, once per package
// version, into a directory in the cache beside the built-in database's template, and PGlite reads them
// from disk as PostgreSQL asks for them (docs/operations.md#memory has the figures). Where nothing can be
// written there, the package's own bundle is loaded the usual way.

// The package exports no package.json: its entry point lies in dist/, beside the bundle.
const PACKAGE_DIST = dirname(require.resolve('@electric-sql/pglite-postgis'));
const FULL_BUNDLE = join(PACKAGE_DIST, 'postgis.tar.gz');
const CACHE_DIR = resolve(__dirname, '..', '..', '..', 'node_modules', '.cache', 'location-imagery-search');
const WASM_PREFIX = '/pglite'; // PostgreSQL's installation inside PGlite (pglite-postgis's own setup says the same)
const MOUNT = '/postgis-files'; // where the unpacked directory appears inside PGlite

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

/** The unpacked directory, made on first use (unpacked beside it and renamed, so a reader never sees half). */
export async function postgisCoreDirectory(cacheDir = CACHE_DIR): Promise<string> {
  const target = join(cacheDir, `postgis-${packageVersion()}-core-v3`);
  if (existsSync(target)) return target;
  const partial = `${target}.${process.pid}.partial`;
  mkdirSync(partial, { recursive: true });
  try {
    await tar.x({ file: FULL_BUNDLE, cwd: partial, filter: keptInBundle });
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    // Another process may have finished the same directory first.
    if (!existsSync(target)) throw error;
  }
  return target;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

interface EmscriptenFs {
  mkdir(path: string): void;
  mkdirTree(path: string): void;
  mount(type: unknown, opts: { root: string }, mountpoint: string): void;
  symlink(target: string, path: string): void;
  filesystems: { NODEFS: unknown };
}
type EmscriptenOpts = Record<string, unknown> & { PGLITE_ENV: Record<string, unknown>; preRun?: unknown[] };

/**
 * PostGIS for PGlite. From the unpacked directory: mounted read-only into PGlite's file system, with links
 * where PostgreSQL looks for the library and the install files, so nothing is held in memory and the
 * library is compiled only when a statement first needs it. Otherwise from the package's bundle.
 */
export async function postgisExtension(): Promise<Extension> {
  const dir = await postgisCoreDirectory().catch(() => undefined);
  return {
    name: 'postgis',
    setup: async (_pg, emscriptenOpts: EmscriptenOpts) => {
      if (!dir) {
        emscriptenOpts.PGLITE_ENV.PROJ_DATA = `${WASM_PREFIX}/share/proj`;
        return { emscriptenOpts, bundlePath: pathToFileURL(FULL_BUNDLE) };
      }
      emscriptenOpts.PGLITE_ENV.PROJ_DATA = `${MOUNT}/share/proj`;
      const linked = filesUnder(dir)
        .map((file) => relative(dir, file))
        .filter((file) => !file.startsWith('share/proj/'));
      const mountFiles = ({ FS }: { FS: EmscriptenFs }) => {
        FS.mkdir(MOUNT);
        FS.mount(FS.filesystems.NODEFS, { root: dir }, MOUNT);
        for (const file of linked) {
          const path = `${WASM_PREFIX}/${file}`;
          FS.mkdirTree(dirname(path));
          FS.symlink(`${MOUNT}/${file}`, path);
        }
      };
      return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), mountFiles] } };
    },
  };
}
