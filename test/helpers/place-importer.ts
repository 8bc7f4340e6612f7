import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { DatabaseModule } from '../../src/database/database.module';
import type { MapFeatureSink } from '../../src/map-data/map-feature';
import type { OsmAreaLookup } from '../../src/places/formats/osm-pbf.reader';
import { PlaceImportOptions, PlaceImportService } from '../../src/places/place-import.service';
import { openPlaceInput, PlaceFormat } from '../../src/places/place-reader';
import { PlacesModule } from '../../src/places/places.module';
import { testConfig } from './test-app';

// The place importer as the places import specs drive it: the Nest module on the test database, a
// connection to read what it wrote, and files in a throwaway directory.

export interface Row {
  id: string;
  kind: string;
  name: string;
  label: string;
  housenumber: string | null;
  street: string | null;
  hierarchy: Record<string, string> | null;
  postcode: string | null;
  locality: string | null;
  municipality: string | null;
  district: string | null;
  region_code: string | null;
  country_code: string | null;
  source_id: string;
  importance: number;
  population: string | null;
  alt_names: string;
  lon: number;
  lat: number;
}

export interface PlaceImporter {
  moduleRef: TestingModule;
  importer: PlaceImportService;
  db: Client;
}

export async function startPlaceImporter(): Promise<PlaceImporter> {
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig()), PlacesModule],
  }).compile();
  await moduleRef.init();
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  return { moduleRef, importer: moduleRef.get(PlaceImportService), db };
}

/** Files to import and the rows a source has; `ctx` is read on each call. */
export function placeImporterTools(ctx: () => Pick<PlaceImporter, 'importer' | 'db'>) {
  const dir = mkdtempSync(join(tmpdir(), 'lis-places-'));

  // `osmAreas`: settle OpenStreetMap places in the file's boundaries, as the command does; `osmMap`:
  // keep the map's features too.
  const importFile = async (
    path: string,
    format: PlaceFormat,
    options: PlaceImportOptions,
    osmAreas?: OsmAreaLookup,
    osmMap?: MapFeatureSink,
  ) => {
    const input = await openPlaceInput(path, format, { countryCode: options.countryCode, osmAreas, osmMap });
    try {
      return await ctx().importer.importPlaces(input.items, options);
    } finally {
      input.close();
    }
  };
  const rows = async (source: string): Promise<Row[]> =>
    (
      await ctx().db.query<Row>(
        `SELECT id::text, kind, name, label, housenumber, street, postcode, locality, municipality, district, hierarchy, region_code, country_code, source_id,
                importance, population::text, alt_names, ST_X(location) AS lon, ST_Y(location) AS lat
         FROM places WHERE source = $1 ORDER BY source_id`,
        [source],
      )
    ).rows;
  const bySourceId = async (source: string) => new Map((await rows(source)).map((r) => [r.source_id, r]));
  const versions = async (source: string) =>
    (
      await ctx().db.query<{ id: string; xmin: string }>(
        'SELECT id::text, xmin::text FROM places WHERE source = $1 ORDER BY id',
        [source],
      )
    ).rows;
  const removeFiles = () => rmSync(dir, { recursive: true, force: true });

  return { dir, importFile, rows, bySourceId, versions, removeFiles };
}
