import type { LoggerService } from '@nestjs/common';
import { MultiBar, Presets, SingleBar } from 'cli-progress';
import { toolLog } from '../logging/cli-logger';

// What every importer (imagery, places) counts; `deleted` and `skipped` only where the importer has them.
export interface ImportCounts {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted?: number;
  /** Input objects that are no record of this importer (an OpenStreetMap way that is no place). */
  skipped?: number;
  rejected: number;
  dryRun: boolean;
  elapsedMs: number;
}

export interface ProgressSource {
  /** File size on disk; unknown for standard input. */
  totalBytes?: number;
  bytesRead(): number;
}

const PLAIN_INTERVAL_MS = 5000;

// A progress bar with rate and ETA on a terminal, a logged line every few seconds otherwise (JSON, as
// every line a tool logs off a terminal: cli-logger.ts); both on stderr so stdout carries only the
// summary. Progress is measured in bytes of the input file.
export class ImportProgress {
  private readonly started = Date.now();
  private multibar?: MultiBar;
  private bar?: SingleBar;
  private lastPlain = Date.now();

  constructor(
    private readonly input: ProgressSource,
    out: NodeJS.WriteStream = process.stderr,
    private readonly tty: boolean = out.isTTY === true,
    private readonly lines: Pick<LoggerService, 'log' | 'warn'> = toolLog,
  ) {
    if (!this.tty) return;
    const known = (input.totalBytes ?? 0) > 0;
    this.multibar = new MultiBar(
      {
        stream: out,
        format: known
          ? '{bar} {percentage}% | {records} records | {rate} records/s | ETA {eta_formatted}'
          : '{records} records | {rate} records/s | {elapsed}s',
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
        fps: 5,
      },
      Presets.shades_classic,
    );
    this.bar = this.multibar.create(known ? input.totalBytes! : 1, 0, { records: 0, rate: 0, elapsed: 0 });
  }

  update(summary: Readonly<Pick<ImportCounts, 'read'>>): void {
    const seconds = (Date.now() - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(summary.read / seconds) : 0;
    const done = this.input.bytesRead();
    if (this.bar) {
      this.bar.update(this.input.totalBytes ? done : 0, { records: summary.read, rate, elapsed: Math.round(seconds) });
      return;
    }
    if (Date.now() - this.lastPlain < PLAIN_INTERVAL_MS) return;
    this.lastPlain = Date.now();
    let line = `progress: ${summary.read} records read, ${rate} records/s`;
    if (this.input.totalBytes && done > 0) {
      const fraction = Math.min(done / this.input.totalBytes, 1);
      line += `, ${Math.floor(fraction * 100)}%, ETA ${Math.round(seconds / fraction - seconds)} s`;
    }
    this.lines.log(line);
  }

  // A message that must not garble the bar.
  log(message: string, level: 'log' | 'warn' = 'log'): void {
    if (this.multibar)
      this.multibar.log(`${message}\n`); // printed above the bar at its next redraw
    else this.lines[level](message);
  }

  // Final rendering; also restores the cursor. Safe to call twice.
  stop(): void {
    if (!this.multibar) return;
    if (this.bar && this.input.totalBytes) this.bar.update(this.input.bytesRead());
    this.multibar.update(); // writes messages still buffered by log()
    this.multibar.stop();
    this.multibar = undefined;
    this.bar = undefined;
  }
}

export function formatSummary(s: Readonly<ImportCounts>): string {
  const seconds = s.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(s.read / seconds) : s.read;
  const tail = `in ${seconds.toFixed(1)} s (${rate.toLocaleString('en-US')} records/s)`;
  // "inserted 3" after a run, "would insert 3" for a dry run.
  const did = (verb: string) => (s.dryRun ? `would ${verb}` : verb.endsWith('e') ? `${verb}d` : `${verb}ed`);
  const parts = [
    `read ${s.read}`,
    `${did('insert')} ${s.inserted}`,
    `${did('update')} ${s.updated}`,
    `unchanged ${s.unchanged}`,
  ];
  if (s.deleted !== undefined) parts.push(`${did('delete')} ${s.deleted}`);
  if (s.skipped !== undefined) parts.push(`skipped ${s.skipped}`);
  parts.push(`rejected ${s.rejected}`);
  return `${s.dryRun ? 'dry run, nothing written: ' : ''}${parts.join(', ')} ${tail}`;
}
