import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { keptInBundle, postgisCoreDirectory } from '../../src/database/postgis-bundle';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

// The PostGIS bundle the built-in database opens: only what the service uses, cut from the package's own.
describe('the cut PostGIS bundle', () => {
  it('keeps the PostGIS library, its install script and PROJ data; leaves raster, topology, TIGER and upgrades', () => {
    const kept = [
      'lib/postgresql/postgis-3.so',
      'share/postgresql/extension/postgis.control',
      'share/postgresql/extension/postgis--3.6.2.sql',
      'share/postgresql/extension/postgis--TEMPLATED--TO--ANY.sql',
      'share/proj/proj.db',
      './share/proj/proj.ini',
    ];
    const left = [
      'lib/postgresql/postgis_raster-3.so',
      'lib/postgresql/postgis_topology-3.so',
      'share/postgresql/extension/postgis_raster--3.6.2.sql',
      'share/postgresql/extension/postgis_topology.control',
      'share/postgresql/extension/postgis_tiger_geocoder--3.6.2.sql',
      'share/postgresql/extension/postgis--ANY--3.6.2.sql',
      'share/postgresql/extension/postgis--unpackaged--3.6.2.sql',
      'share/postgresql/contrib/postgis-3.6/spatial_ref_sys.sql',
    ];
    expect(kept.filter((p) => !keptInBundle(p))).toEqual([]);
    expect(left.filter((p) => keptInBundle(p))).toEqual([]);
  });

  it('is unpacked once into a directory holding the library, and found again on the next call', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'lis-postgis-bundle-'));
    try {
      const dir = await postgisCoreDirectory(cache);
      const names = filesUnder(dir);
      expect(names).toEqual(expect.arrayContaining(['lib/postgresql/postgis-3.so', 'share/proj/proj.db']));
      expect(names.filter((n) => !keptInBundle(n))).toEqual([]);
      expect(readdirSync(cache)).toEqual([dir.slice(cache.length + 1)]);
      expect(await postgisCoreDirectory(cache)).toBe(dir);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
