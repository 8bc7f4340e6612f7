import { parseArgs } from 'node:util';
import { formatFromPath, ImportFormat, openFile, readFeatures } from '../imagery/feature-reader';
import { ImageryImportService } from '../imagery/imagery-import.service';
import { runCli, UsageError } from './cli-context';

const USAGE = `usage: npm run import -- <file> [--format ndjson|geojson] [--source <name>]
  .geojson/.json: a FeatureCollection; .ndjson/.geojsonl/.geojsons/.jsonl: one Feature per line`;

void runCli(async (ctx) => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { format: { type: 'string' }, source: { type: 'string' } },
  });
  const [file] = positionals;
  if (!file) throw new UsageError(USAGE);
  const format = (values.format ?? formatFromPath(file)) as ImportFormat | undefined;
  if (format !== 'ndjson' && format !== 'geojson') {
    throw new UsageError(`cannot tell the format of ${file}; pass --format ndjson|geojson\n${USAGE}`);
  }
  const started = Date.now();
  const where = format === 'ndjson' ? 'line' : 'feature';
  const summary = await ctx.get(ImageryImportService).importFeatures(readFeatures(openFile(file), format), {
    source: values.source ?? null,
    maxReportedRejections: 0,
    onRejection: (r) => console.error(`rejected ${where} ${r.position}: ${r.field} ${r.reason}`),
  });
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `read ${summary.read}, inserted ${summary.inserted}, updated ${summary.updated}, unchanged ${summary.unchanged}, ` +
      `rejected ${summary.rejected} in ${seconds.toFixed(1)} s`,
  );
  return summary.rejected > 0 ? 1 : 0;
});
