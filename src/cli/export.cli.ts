import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { formatFromPath, IMPORT_FORMATS, isImportFormat } from '../import-formats/import-input';
import { IdPages, ImageryExportService } from '../imagery/imagery-export.service';
import { COUNT_CAP } from '../search/paging/search-limits';
import { LIMIT_MAX, SearchRequestDto } from '../search/dto/search-request.dto';
import { SearchService } from '../search/search.service';
import { parseOptions } from './cli-arguments';
import { runCli, UsageError } from './cli-context';
import { toolLog } from '../logging/cli-logger';

const USAGE = `usage: npm run export -- <file|-> [--format ${IMPORT_FORMATS.join('|')}] [--query <text>] [--source <name>]
  writes the catalogue (in id order), one source's records, or a search's matches (best first, at most
  ${COUNT_CAP}) in a format \`npm run import\` reads back unchanged; a .gz name is gzipped;
  - writes to standard output (then --format is needed)`;

function parseExportOptions() {
  const { positionals, values } = parseOptions(
    {
      allowPositionals: true,
      options: { format: { type: 'string' }, query: { type: 'string' }, source: { type: 'string' } },
    },
    USAGE,
  );
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError(USAGE);
  const format = values.format ?? formatFromPath(file);
  if (format === undefined || !isImportFormat(format)) {
    throw new UsageError(`cannot tell the format for ${file}; pass --format ${IMPORT_FORMATS.join('|')}\n${USAGE}`);
  }
  if (values.query !== undefined && values.source !== undefined)
    throw new UsageError('use either --query or --source, not both');
  return { file, format, values };
}

void runCli(parseExportOptions, async (ctx, { file, format, values }) => {
  const exporter = ctx.get(ImageryExportService);
  const records =
    values.query !== undefined
      ? exporter.byIds(searchPages(ctx.get(SearchService), values.query))
      : exporter.catalogue({ source: values.source ?? null });
  const started = Date.now();
  const gzip = /\.gz$/i.test(file);

  let count: number;
  if (file === '-') {
    try {
      count = (await exporter.write(records, format, process.stdout, gzip)).records;
    } catch (error) {
      if ((error as { code?: string }).code === 'EPIPE') return; // the reader stopped early (| head): not an error
      throw error;
    }
  } else {
    // Written beside the target and renamed at the end: a failed export never leaves a half-written file.
    const partial = `${file}.partial-${process.pid}`;
    try {
      count = (await exporter.write(records, format, createWriteStream(partial), gzip)).records;
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
  toolLog.log(
    `exported ${count} records${file === '-' ? '' : ` to ${file}`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
});

// The search's result pages, through the service's own validation and bounds (as POST /search would).
async function* searchPages(search: SearchService, query: string): IdPages {
  for (let page = 1; page * LIMIT_MAX <= COUNT_CAP; page++) {
    const request = plainToInstance(SearchRequestDto, { query, limit: LIMIT_MAX, page });
    const errors = validateSync(request);
    if (errors.length > 0)
      throw new UsageError(`--query: ${errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; ')}`);
    const result = await search.search(request);
    yield result.data.map((r) => r.id);
    if (page >= result.pageTotal) return;
    if ((page + 1) * LIMIT_MAX > COUNT_CAP) {
      toolLog.warn(
        `the query matches more than ${COUNT_CAP} records; the export holds the best ${COUNT_CAP} (the search bound)`,
      );
    }
  }
}
