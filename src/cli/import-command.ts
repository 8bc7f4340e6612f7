import { toolLog } from '../logging/cli-logger';
import { UsageError } from './cli-arguments';
import { formatSummary, ImportCounts, ImportProgress, ProgressSource } from './import-progress';
import { SOURCE_PATTERN } from '../imagery/imagery-feature';
import type { ImportOutcome } from '../imagery/imagery-import.service';
import type { ImportRejection } from '../import-formats/rejection';
import { ImportSignals } from './import-interruption';
import { RejectionReport } from './rejection-report';

// What the import commands (imagery, places) share besides the progress display.

/** The options both import commands take (each adds its own). */
export const IMPORT_OPTIONS = {
  format: { type: 'string' },
  source: { type: 'string' },
  report: { type: 'string' },
  'max-rejects': { type: 'string', default: '0' },
  'dry-run': { type: 'boolean', default: false },
  'batch-size': { type: 'string' },
} as const;

// Their lines in the usage text.
export const usageOf = {
  format: (formats: readonly string[]) => `  --format <f>           ${formats.join('|')} (overrides the extension)`,
  rejects: `  --report <file>        write every rejected record as NDJSON
  --max-rejects <n>      rejections tolerated for exit code 0 (default 0)
  --dry-run              validate and count; change nothing`,
  batchSize: (rows: string, byDefault: number, max: number) =>
    `  --batch-size <n>       ${rows} per atomic batch (default ${byDefault}, at most ${max})`,
};

// The one input file (or - for standard input) and its format: --format, else the file's extension.
export function fileAndFormat<F extends string>(
  positionals: string[],
  given: string | undefined,
  o: { usage: string; formats: readonly F[]; fromPath: (file: string) => string | undefined },
): { file: string; format: F } {
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError(o.usage);
  const format = given ?? o.fromPath(file);
  if (format === undefined || !(o.formats as readonly string[]).includes(format)) {
    throw new UsageError(`cannot tell the format of ${file}; pass --format ${o.formats.join('|')}\n${o.usage}`);
  }
  return { file, format: format as F };
}

// --max-rejects and --batch-size.
export function batchOptions(
  values: { 'max-rejects': string; 'batch-size'?: string },
  maxBatch: number,
): { maxRejects: number; batchSize?: number } {
  const maxRejects = integerOption('--max-rejects', values['max-rejects'], 0, Number.MAX_SAFE_INTEGER);
  const batchSize =
    values['batch-size'] === undefined ? undefined : integerOption('--batch-size', values['batch-size'], 1, maxBatch);
  return { maxRejects, batchSize };
}

/** What an import run reports at the end. */
export interface ImportRunSummary extends ImportCounts {
  outcome: ImportOutcome;
  inputError?: string;
}

/** What runImport hands the importer. */
export interface ImportHooks {
  maxReportedRejections: 0;
  onRejection: (r: Pick<ImportRejection, 'field' | 'reason'> & { position: number | string }) => Promise<void>;
  onProgress: (summary: Readonly<ImportCounts>) => void;
  signal: AbortSignal;
}

// What an import says when it could not bring the ranked word lists up to date (its data is stored).
export function listsNotRefreshedNote(reason: string): string {
  return `ranked word lists not brought up to date (${reason}): searches still find every record; the next import catches up`;
}

// Runs an import with progress on stderr, Ctrl-C handling and the rejection report, prints what
// happened and the summary, and says the exit code: 130/143 interrupted, 1 unreadable input or more
// rejections than --max-rejects, else 0. `notes`: lines of the importer's own (after the rejections).
export async function runImport<S extends ImportRunSummary>(o: {
  input: ProgressSource;
  /** Releases the input when an interrupt came while it was idle. */
  close: () => void;
  where: string;
  reportPath?: string;
  maxRejects: number;
  run: (hooks: ImportHooks) => Promise<S>;
  notes?: (summary: S) => string[];
}): Promise<{ summary: S; exitCode: number }> {
  const report = o.reportPath ? await RejectionReport.open(o.reportPath) : undefined;
  const progress = new ImportProgress(o.input);
  const signals = new ImportSignals(progress);
  const rejections = new RejectionLog(progress, o.where, report);

  let summary: S;
  try {
    summary = await o.run({
      maxReportedRejections: 0,
      onRejection: rejections.add,
      onProgress: (s) => progress.update(s),
      signal: signals.signal,
    });
  } finally {
    o.close();
    progress.stop();
    await report?.close();
    signals.dispose();
  }

  const more = rejections.more(summary.rejected, o.reportPath);
  if (more) toolLog.warn(more);
  for (const note of o.notes?.(summary) ?? []) toolLog.warn(note);
  if (summary.outcome === 'input-error') toolLog.error(summary.inputError);
  if (summary.outcome === 'interrupted')
    toolLog.warn('interrupted: every batch written is complete; run the same command again to finish');
  console.log(formatSummary(summary));

  const exitCode =
    summary.outcome === 'interrupted'
      ? signals.exitCode
      : summary.outcome === 'input-error' || summary.rejected > o.maxRejects
        ? 1
        : 0;
  return { summary, exitCode };
}

// --source: printable ASCII, no leading or trailing blank (the rule a record's own source obeys too).
export const SOURCE_NAME = SOURCE_PATTERN;

// Rejections printed to the terminal when --report collects them all.
const PRINTED_WITH_REPORT = 10;

export function integerOption(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${name} must be an integer between ${min} and ${max}`);
  return n;
}

// Each rejection on the terminal (only the first few when --report takes them all) and in the report.
export class RejectionLog {
  private printed = 0;

  constructor(
    private readonly progress: ImportProgress,
    private readonly where: string,
    private readonly report?: RejectionReport,
  ) {}

  readonly add = async (r: { position: number | string; field: string; reason: string }): Promise<void> => {
    if (!this.report || this.printed < PRINTED_WITH_REPORT) {
      this.printed++;
      this.progress.log(`rejected ${this.where} ${r.position}: ${r.field} ${r.reason}`, 'warn');
    }
    await this.report?.write({ [this.where]: r.position, field: r.field, reason: r.reason });
  };

  /** "… 12 more rejections in report.ndjson", when the terminal did not show them all. */
  more(rejected: number, reportPath?: string): string | undefined {
    return this.report && rejected > this.printed
      ? `… ${rejected - this.printed} more rejections in ${reportPath}`
      : undefined;
  }
}
