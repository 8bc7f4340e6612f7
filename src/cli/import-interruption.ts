import { ImportProgress } from './import-progress';

// An import made safe to interrupt, at the terminal: the signals' side. The read loop
// (src/database/bulk-import/interruptible-read-loop.ts) writes every batch whole or not at all.
// First Ctrl-C (or SIGTERM): finish the batch in hand, then stop. A second one stops at once; the
// batch being written then rolls back, which is safe too.
export class ImportSignals {
  private readonly controller = new AbortController();
  private received?: NodeJS.Signals;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.received) {
      this.progress.stop();
      process.exit(signal === 'SIGTERM' ? 143 : 130);
    }
    this.received = signal;
    this.progress.log('stopping after the current batch (press Ctrl-C again to stop at once)…');
    this.controller.abort();
  };

  constructor(private readonly progress: ImportProgress) {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The exit code of an interrupted run: 143 after SIGTERM, 130 after Ctrl-C. */
  get exitCode(): number {
    return this.received === 'SIGTERM' ? 143 : 130;
  }

  dispose(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }
}
