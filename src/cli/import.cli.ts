import { parseArgs } from 'node:util';
import { formatFromPath, IMPORT_FORMATS, isImportFormat, openInput, positionLabel, readFeatures } from '../imagery/feature-reader';
import { DEFAULT_CONNECTIONS, ImageryImportService, ImportRejection, MAX_BATCH_SIZE, MAX_CONNECTIONS } from '../imagery/imagery-import.service';
import { runCli, UsageError } from './cli-context';
import { formatSummary, ImportProgress } from './import-progress';
import { RejectionReport } from './rejection-report';

const USAGE = `usage: npm run import -- <file|-> [options]
  <file>                 .geojson/.json (FeatureCollection), .geojsons/.ndjson/.geojsonl/.jsonl (one Feature per
                         record), .csv (header: id,address,captured_at,heading,interactive,image_url,lon,lat);
                         gzip is read as such; - reads standard input (then --format is needed)
  --format <f>           ${IMPORT_FORMATS.join('|')} (overrides the extension)
  --source <name>        tag the records with where they came from
  --delete-missing       remove records of --source that the input no longer contains (only after a
                         complete run with at most --max-rejects rejections)
  --report <file>        write every rejected record as NDJSON
  --max-rejects <n>      rejections tolerated for exit code 0 (default 0)
  --dry-run              validate and count; change nothing
  --batch-size <n>       records per atomic batch (default 5000, at most ${MAX_BATCH_SIZE})
  --connections <n>      database connections writing batches in parallel (default ${DEFAULT_CONNECTIONS}, at most ${MAX_CONNECTIONS})
exit codes: 0 done, 1 more rejections than --max-rejects or unreadable input, 2 usage, 130 interrupted`;

// Rejections printed to the terminal when --report collects them all.
const PRINTED_WITH_REPORT = 10;
const SOURCE = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;

void runCli(async (ctx) => {
  const { positionals, values } = usageOnError(() =>
    parseArgs({
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        source: { type: 'string' },
        'delete-missing': { type: 'boolean', default: false },
        report: { type: 'string' },
        'max-rejects': { type: 'string', default: '0' },
        'dry-run': { type: 'boolean', default: false },
        'batch-size': { type: 'string' },
        connections: { type: 'string' },
      },
    }),
  );
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError(USAGE);
  const format = values.format ?? formatFromPath(file);
  if (format === undefined || !isImportFormat(format)) {
    throw new UsageError(`cannot tell the format of ${file}; pass --format ${IMPORT_FORMATS.join('|')}\n${USAGE}`);
  }
  const source = values.source;
  if (source !== undefined && !SOURCE.test(source)) throw new UsageError('--source must be 1 to 200 printable ASCII characters');
  if (values['delete-missing'] && source === undefined) throw new UsageError('--delete-missing needs --source <name>: it only ever deletes records of that source');
  const maxRejects = integerOption('--max-rejects', values['max-rejects'], 0, Number.MAX_SAFE_INTEGER);
  const batchSize = values['batch-size'] === undefined ? undefined : integerOption('--batch-size', values['batch-size'], 1, MAX_BATCH_SIZE);
  const connections = values.connections === undefined ? undefined : integerOption('--connections', values.connections, 1, MAX_CONNECTIONS);

  const input = await openInput(file);
  const report = values.report ? await RejectionReport.open(values.report) : undefined;
  const where = positionLabel(format);
  const progress = new ImportProgress(input);

  // First Ctrl-C (or SIGTERM): finish the batch in hand, then stop. A second one stops at once; the
  // batch being written then rolls back, which is safe too.
  const controller = new AbortController();
  let exitSignal: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (exitSignal) {
      progress.stop();
      process.exit(signal === 'SIGTERM' ? 143 : 130);
    }
    exitSignal = signal;
    progress.log('stopping after the current batch (press Ctrl-C again to stop at once)…');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let printed = 0;
  const onRejection = async (r: ImportRejection) => {
    if (!report || printed < PRINTED_WITH_REPORT) {
      printed++;
      progress.log(`rejected ${where} ${r.position}: ${r.field} ${r.reason}`);
    }
    await report?.write({ [where]: r.position, field: r.field, reason: r.reason });
  };

  let summary;
  try {
    summary = await ctx.get(ImageryImportService).importFeatures(readFeatures(input.stream, format), {
      source: source ?? null,
      batchSize,
      connections,
      dryRun: values['dry-run'],
      deleteMissing: values['delete-missing'],
      maxRejects,
      maxReportedRejections: 0,
      onRejection,
      onProgress: (s) => progress.update(s),
      signal: controller.signal,
    });
  } finally {
    input.stream.destroy(); // releases standard input when an interrupt came while it was idle
    progress.stop();
    await report?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  if (report && summary.rejected > printed) console.error(`… ${summary.rejected - printed} more rejections in ${values.report}`);
  if (summary.deletionSkipped) console.error(`--delete-missing: nothing deleted because ${summary.deletionSkipped}`);
  if (summary.outcome === 'input-error') console.error(`error: ${summary.inputError}`);
  if (summary.outcome === 'interrupted') console.error('interrupted: every batch written is complete; run the same command again to finish');
  console.log(formatSummary(summary));

  if (summary.outcome === 'interrupted') return exitSignal === 'SIGTERM' ? 143 : 130;
  if (summary.outcome === 'input-error' || summary.rejected > maxRejects) return 1;
  return 0;
});

function integerOption(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${name} must be an integer between ${min} and ${max}`);
  return n;
}

// Unknown options and missing values are usage errors (exit 2), like every other bad argument.
function usageOnError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS')) throw new UsageError(`${(error as Error).message}\n${USAGE}`);
    throw error;
  }
}
