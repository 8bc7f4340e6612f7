import type { INestApplicationContext } from '@nestjs/common';
import { ImagerySourceDeletion } from '../imagery/imagery-source-deletion.service';
import { readFeatures } from '../imagery/formats/imagery-feature.reader';
import { formatFromPath, IMPORT_FORMATS, openInput, positionLabel } from '../import-formats/import-input';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_CONNECTIONS,
  ImageryImportService,
  MAX_BATCH_SIZE,
  MAX_CONNECTIONS,
} from '../imagery/imagery-import.service';
import { parseOptions } from './cli-arguments';
import { runCli, UsageError } from './cli-context';
import { namesPhotos, PHOTO_OPTIONS, PHOTO_USAGE, photoCommand, runPhotoImport } from './import-photos';
import {
  batchOptions,
  fileAndFormat,
  IMPORT_OPTIONS,
  listsNotRefreshedNote,
  integerOption,
  runImport,
  SOURCE_NAME,
  usageOf,
} from './import-command';
import { toolLog } from '../logging/cli-logger';

const USAGE = `usage: npm run import -- <file|-> [options]
       npm run import -- --delete-source <name> [--dry-run]
  <file>                 .geojson/.json (FeatureCollection), .geojsons/.ndjson/.geojsonl/.jsonl (one Feature per
                         record), .csv (header: id,address,captured_at,heading,interactive,image_url,lon,lat,
                         source,address_origin; id, address, interactive, source, address_origin optional);
                         a record without an address gets one from the places near it (npm run import:places first);
                         gzip is read as such; - reads standard input (then --format is needed)
${usageOf.format(IMPORT_FORMATS)}
  --source <name>        tag the records with where they came from (instead of a record's own source)
  --delete-missing       remove records of --source that the input no longer contains (only after a
                         complete run with at most --max-rejects rejections)
${usageOf.rejects}
${usageOf.batchSize('records', DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE)}
  --connections <n>      database connections writing batches in parallel (default ${DEFAULT_CONNECTIONS}, at most ${MAX_CONNECTIONS})
  --keep-indexes         into an empty catalogue too, keep its indexes while loading (searches stay fast
                         during the load; the load is slower): see docs/data.md, "A first load"
  --delete-source <name> remove every record of that source (demo-seed: the demo's) and their photo
                         details, in atomic batches; reads no input; with --dry-run, say how many
exit codes: 0 done, 1 more rejections than --max-rejects or unreadable input, 2 usage, 130 interrupted

${PHOTO_USAGE}`;

function parseImportOptions() {
  const { positionals, values } = parseOptions(
    {
      allowPositionals: true,
      options: {
        ...IMPORT_OPTIONS,
        'delete-missing': { type: 'boolean', default: false },
        connections: { type: 'string' },
        'keep-indexes': { type: 'boolean', default: false },
        'delete-source': { type: 'string' },
        ...PHOTO_OPTIONS,
      },
    },
    USAGE,
  );
  if (values['delete-source'] !== undefined) return { deletion: deletionCommand(positionals, values) } as const;
  const { maxRejects, batchSize } = batchOptions(values, MAX_BATCH_SIZE);
  const source = values.source;
  if (source !== undefined && !SOURCE_NAME.test(source))
    throw new UsageError('--source must be 1 to 200 printable ASCII characters');
  if (positionals.length > 0 && namesPhotos(positionals)) {
    return {
      photos: photoCommand(positionals, values, {
        source,
        report: values.report,
        maxRejects,
        dryRun: values['dry-run'],
      }),
    } as const;
  }
  const photoOnly = Object.keys(PHOTO_OPTIONS).find((o) => values[o as keyof typeof PHOTO_OPTIONS] !== undefined);
  if (photoOnly) throw new UsageError(`--${photoOnly} is for photos (a folder or JPEG files)\n${USAGE}`);
  const { file, format } = fileAndFormat(positionals, values.format, {
    usage: USAGE,
    formats: IMPORT_FORMATS,
    fromPath: formatFromPath,
  });
  if (values['delete-missing'] && source === undefined)
    throw new UsageError('--delete-missing needs --source <name>: it only ever deletes records of that source');
  const connections =
    values.connections === undefined
      ? undefined
      : integerOption('--connections', values.connections, 1, MAX_CONNECTIONS);
  return { photos: undefined, records: { file, format, source, values, maxRejects, batchSize, connections } };
}

// --delete-source <name> [--dry-run], alone: nothing is read, so no other option applies.
function deletionCommand(positionals: string[], values: Record<string, unknown>) {
  const source = values['delete-source'] as string;
  if (!SOURCE_NAME.test(source))
    throw new UsageError('--delete-source needs the name of a source: 1 to 200 printable ASCII characters');
  if (positionals.length > 0) throw new UsageError(`--delete-source reads no input: name no file\n${USAGE}`);
  const given = Object.keys(values).filter(
    (o) => !['delete-source', 'dry-run'].includes(o) && values[o] !== undefined && values[o] !== DEFAULTS[o],
  );
  if (given.length > 0) throw new UsageError(`--delete-source takes only --dry-run (not --${given[0]})\n${USAGE}`);
  return { source, dryRun: values['dry-run'] === true };
}

// The options' defaults: an option left at its default was not given.
const DEFAULTS: Record<string, unknown> = {
  'max-rejects': '0',
  'dry-run': false,
  'delete-missing': false,
  'keep-indexes': false,
};

void runCli(
  parseImportOptions,
  async (ctx, command, config) => {
    if (command.deletion) return runDeletion(ctx, command.deletion);
    if (command.photos) return runPhotoImport(ctx, command.photos, config);
    const { file, format, source, values, maxRejects, batchSize, connections } = command.records;
    const input = await openInput(file);
    const { exitCode } = await runImport({
      input,
      close: () => input.stream.destroy(),
      where: positionLabel(format),
      reportPath: values.report,
      maxRejects,
      run: (hooks) =>
        ctx.get(ImageryImportService).importFeatures(readFeatures(input.stream, format), {
          source: source ?? null,
          batchSize,
          connections,
          dryRun: values['dry-run'],
          deleteMissing: values['delete-missing'],
          firstLoad: !values['keep-indexes'],
          maxRejects,
          ...hooks,
        }),
      notes: (s) => [
        ...(s.firstLoadIndexSeconds !== undefined
          ? [
              `first load: the catalogue was empty, so its indexes were built once at the end (${s.firstLoadIndexSeconds.toFixed(1)} s)`,
            ]
          : []),
        ...(s.coverage
          ? [
              `map coverage: ${s.coverage.rebuilt ? `every cell rebuilt (${s.coverage.cells})` : `${s.coverage.cells} cells recomputed`} in ${s.coverage.seconds.toFixed(1)} s`,
            ]
          : []),
        ...(s.deletionSkipped ? [`--delete-missing: nothing deleted because ${s.deletionSkipped}`] : []),
        ...(s.listsNotRefreshed ? [listsNotRefreshedNote(s.listsNotRefreshed)] : []),
      ],
    });
    return exitCode;
  },
  // Photos have no addresses: on a new built-in database they are recovered from the gazetteer the server's copy holds.
  (command) => (command.photos ? 'demo' : 'schema'),
);

async function runDeletion(ctx: INestApplicationContext, o: { source: string; dryRun: boolean }): Promise<number> {
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  try {
    const d = await ctx.get(ImagerySourceDeletion).deleteSource(o.source, {
      dryRun: o.dryRun,
      signal: stop.signal,
      onProgress: (n) => toolLog.log(`${n.records.toLocaleString('en-US')} records deleted`),
    });
    const what = `${d.records} records of source ${o.source} (${d.photos} of them photos)`;
    if (d.dryRun) console.log(`dry run: would delete ${what}; nothing changed`);
    else
      console.log(
        `deleted ${what} in ${d.seconds.toFixed(1)} s${stop.signal.aborted ? ' (interrupted: run it again to finish)' : ''}`,
      );
    if (d.listsNotRefreshed) console.log(listsNotRefreshedNote(d.listsNotRefreshed));
    return stop.signal.aborted ? 130 : 0;
  } finally {
    process.off('SIGINT', interrupt).off('SIGTERM', interrupt);
  }
}
