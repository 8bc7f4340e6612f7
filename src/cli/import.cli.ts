import { readFeatures } from '../imagery/formats/imagery-feature.reader';
import { formatFromPath, IMPORT_FORMATS, openInput, positionLabel } from '../import-formats/import-input';
import {
  DEFAULT_BATCH_SIZE,
  DEFAULT_CONNECTIONS,
  ImageryImportService,
  MAX_BATCH_SIZE,
  MAX_CONNECTIONS,
} from '../imagery/imagery-import.service';
import { runCli, UsageError } from './cli-context';
import {
  batchOptions,
  fileAndFormat,
  IMPORT_OPTIONS,
  listsNotRefreshedNote,
  integerOption,
  parseOptions,
  runImport,
  SOURCE_NAME,
  usageOf,
} from './import-command';

const USAGE = `usage: npm run import -- <file|-> [options]
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
exit codes: 0 done, 1 more rejections than --max-rejects or unreadable input, 2 usage, 130 interrupted`;

function parseImportOptions() {
  const { positionals, values } = parseOptions(
    {
      allowPositionals: true,
      options: {
        ...IMPORT_OPTIONS,
        'delete-missing': { type: 'boolean', default: false },
        connections: { type: 'string' },
        'keep-indexes': { type: 'boolean', default: false },
      },
    },
    USAGE,
  );
  const { file, format } = fileAndFormat(positionals, values.format, {
    usage: USAGE,
    formats: IMPORT_FORMATS,
    fromPath: formatFromPath,
  });
  const source = values.source;
  if (source !== undefined && !SOURCE_NAME.test(source))
    throw new UsageError('--source must be 1 to 200 printable ASCII characters');
  if (values['delete-missing'] && source === undefined)
    throw new UsageError('--delete-missing needs --source <name>: it only ever deletes records of that source');
  const { maxRejects, batchSize } = batchOptions(values, MAX_BATCH_SIZE);
  const connections =
    values.connections === undefined
      ? undefined
      : integerOption('--connections', values.connections, 1, MAX_CONNECTIONS);
  return { file, format, source, values, maxRejects, batchSize, connections };
}

void runCli(parseImportOptions, async (ctx, { file, format, source, values, maxRejects, batchSize, connections }) => {
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
});
