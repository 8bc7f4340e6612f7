import type { INestApplicationContext } from '@nestjs/common';
import { GazetteerSeedService } from '../places/gazetteer/gazetteer-seed.service';
import { ImageryPlaceLinker } from '../imagery/address-recovery/imagery-place-linker.service';
import { osmiumAvailable, OSMIUM_MISSING } from '../places/formats/osm-pbf.reader';
import { DEFAULT_PLACE_BATCH_SIZE, MAX_PLACE_BATCH_SIZE, PlaceImportService } from '../places/place-import.service';
import { openPlaceInput, PLACE_FORMATS, placeFormatFromPath } from '../places/place-reader';
import { PlaceRepository } from '../places/place.repository';
import { MapDataRepository } from '../map-data/map-data.repository';
import { parseOptions } from './cli-arguments';
import { runCli, UsageError } from './cli-context';
import {
  batchOptions,
  fileAndFormat,
  IMPORT_OPTIONS,
  listsNotRefreshedNote,
  runImport,
  SOURCE_NAME,
  usageOf,
} from './import-command';
import { toolLog } from '../logging/cli-logger';

const USAGE = `usage: npm run import:places -- <file|-> [options]
       npm run import:places -- --world
  --world                load the built-in world gazetteer (countries, regions, towns, US ZIP codes) alone,
                         without the demo records; again: brings it up to date (reads no file)
  <file>                 .osm.pbf/.pbf/.osm (OpenStreetMap, read by osmium; not standard input; its
                         streets, water, landuse and buildings are kept for the map: docs/map-tiles.md),
                         .csv (OpenAddresses: LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH),
                         .geojson/.json (FeatureCollection) or .ndjson/.geojsonl/.jsonl/.geojsons (one Feature
                         per line) with the properties of docs/places.md; gzip is read as such (CSV, GeoJSON);
                         - reads standard input (then --format is needed)
${usageOf.format(PLACE_FORMATS)}
  --source <name>        where the places come from; part of every place's id (default: the format's
                         name: osm, openaddresses, geojson)
  --country <XX>         ISO 3166-1 alpha-2 country of places whose record names none (an OSM
                         addr:country tag or a GeoJSON country_code wins)
${usageOf.rejects}
${usageOf.batchSize('places', DEFAULT_PLACE_BATCH_SIZE, MAX_PLACE_BATCH_SIZE)}
exit codes: 0 done, 1 more rejections than --max-rejects, unreadable input or osmium missing, 2 usage, 130 interrupted`;

function parsePlaceImportOptions() {
  const { positionals, values } = parseOptions(
    {
      allowPositionals: true,
      options: { ...IMPORT_OPTIONS, country: { type: 'string' }, world: { type: 'boolean', default: false } },
    },
    USAGE,
  );
  if (values.world) {
    const other = process.argv.slice(2).find((a) => a !== '--world');
    if (other !== undefined) throw new UsageError(`--world takes no file and no other option (not ${other})\n${USAGE}`);
    return { world: true } as const;
  }
  const { file, format } = fileAndFormat(positionals, values.format, {
    usage: USAGE,
    formats: PLACE_FORMATS,
    fromPath: placeFormatFromPath,
  });
  if (format === 'osm' && file === '-')
    throw new UsageError('OpenStreetMap files are read twice by osmium: give a file, not standard input');
  const source = values.source ?? format; // osm, openaddresses, geojson
  if (!SOURCE_NAME.test(source)) throw new UsageError('--source must be 1 to 200 printable ASCII characters');
  const countryCode = values.country?.toUpperCase();
  if (countryCode !== undefined && !/^[A-Z]{2}$/.test(countryCode))
    throw new UsageError('--country must be an ISO 3166-1 alpha-2 code such as LI or US');
  const { maxRejects, batchSize } = batchOptions(values, MAX_PLACE_BATCH_SIZE);
  return { world: false, file, format, source, countryCode, values, maxRejects, batchSize } as const;
}

void runCli(parsePlaceImportOptions, async (ctx, options) => {
  if (options.world) return loadWorldGazetteer(ctx);
  return importPlaceFile(ctx, options);
});

// The world gazetteer the built-in database's first start loads, alone; then imagery re-linked to it.
async function loadWorldGazetteer(ctx: INestApplicationContext): Promise<number> {
  const s = await ctx.get(GazetteerSeedService).seed({
    onProgress: (done, total) => {
      if (done % 20_000 < 2_000 || done === total)
        toolLog.log(`${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} places`);
    },
  });
  console.log(
    `world gazetteer: inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}, deleted ${s.deleted} in ${s.seconds.toFixed(1)} s`,
  );
  if (s.inserted + s.updated + s.deleted > 0) await ctx.get(MapDataRepository).dataChanged();
  await relink(ctx);
  return 0;
}

async function relink(ctx: INestApplicationContext): Promise<void> {
  toolLog.log('re-linking imagery to places…');
  const linked = await ctx.get(ImageryPlaceLinker).relinkAfterPlaceImport();
  console.log(`imagery re-linked: ${linked.relinked} changed, ${linked.unchanged} unchanged`);
  if (linked.listsNotRefreshed) toolLog.warn(listsNotRefreshedNote(linked.listsNotRefreshed));
}

async function importPlaceFile(
  ctx: INestApplicationContext,
  { file, format, source, countryCode, values, maxRejects, batchSize }: PlaceFileOptions,
): Promise<number> {
  if (format === 'osm' && !osmiumAvailable()) {
    toolLog.error(OSMIUM_MISSING);
    return 1;
  }

  const osmAreas = format === 'osm' ? await ctx.get(PlaceRepository).openAreaSession() : undefined;
  // The map's streets, water, landuse and buildings (docs/map-tiles.md); a dry run draws nothing.
  const osmMap =
    osmAreas && !values['dry-run'] ? await ctx.get(MapDataRepository).openGeometrySession(source) : undefined;
  const closeOsm = async () => {
    await osmAreas?.close();
    await osmMap?.close();
  };
  const input = await openPlaceInput(file, format, { countryCode, osmAreas, osmMap }).catch(async (error: unknown) => {
    await closeOsm();
    throw error;
  });
  const { summary, exitCode } = await runImport({
    input,
    close: () => input.close(), // standard input, or osmium
    where: input.positionLabel,
    reportPath: values.report,
    maxRejects,
    run: (hooks) =>
      ctx
        .get(PlaceImportService)
        .importPlaces(input.items, { source, countryCode, batchSize, dryRun: values['dry-run'], ...hooks })
        .then(async (done) => {
          // The staged map replaces the source's old one only after a complete read of the file.
          if (osmMap && done.outcome === 'complete') console.log(`map features: ${await osmMap.finish()}`);
          return done;
        })
        .finally(closeOsm),
  });
  // Places or map features changed: every tile's ETag changes.
  if (!summary.dryRun && summary.outcome === 'complete') await ctx.get(MapDataRepository).dataChanged();

  // Imagery without an address of its own takes the nearest place's, and every record its locality:
  // after every complete import (not only one that changed places, so a run that finishes an
  // interrupted one still links); the linker writes only records whose links change.
  if (!summary.dryRun && summary.outcome === 'complete') await relink(ctx);
  return exitCode;
}

type PlaceFileOptions = Exclude<ReturnType<typeof parsePlaceImportOptions>, { world: true }>;
