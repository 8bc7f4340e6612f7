import { Writable } from 'node:stream';
import { formatSummary, ImportProgress } from '../../src/cli/import-progress';
import { ImportSummary } from '../../src/imagery/imagery-import.service';

const summary = (over: Partial<ImportSummary> = {}): ImportSummary => ({
  read: 1000,
  inserted: 700,
  updated: 100,
  unchanged: 150,
  deleted: 3,
  rejected: 50,
  rejections: [],
  dryRun: false,
  outcome: 'complete',
  elapsedMs: 2000,
  ...over,
});

// Collects what the progress display writes; as a terminal it also takes cursor control calls.
function output(tty: boolean) {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, {
    isTTY: tty,
    columns: 120,
    cursorTo: () => true,
    moveCursor: () => true,
    clearLine: () => true,
    clearScreenDown: () => true,
  });
  return { stream, text: () => text };
}

describe('formatSummary', () => {
  it('names every count, the time and the rate', () => {
    expect(formatSummary(summary())).toBe(
      'read 1000, inserted 700, updated 100, unchanged 150, deleted 3, rejected 50 in 2.0 s (500 records/s)',
    );
  });

  it('says what a dry run would do', () => {
    expect(formatSummary(summary({ dryRun: true }))).toBe(
      'dry run, nothing written: read 1000, would insert 700, would update 100, unchanged 150, would delete 3, rejected 50 in 2.0 s (500 records/s)',
    );
  });
});

describe('ImportProgress', () => {
  it('logs a line at most every few seconds when not on a terminal, and messages at their level', () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const out = output(false);
      const logged: Array<[string, string]> = [];
      const lines = { log: (m: string) => logged.push(['log', m]), warn: (m: string) => logged.push(['warn', m]) };
      let bytes = 0;
      const progress = new ImportProgress({ totalBytes: 1000, bytesRead: () => bytes }, out.stream, false, lines);
      bytes = 100;
      progress.update(summary({ read: 100 }));
      expect(logged).toEqual([]);
      jest.setSystemTime(10_000);
      bytes = 250;
      progress.update(summary({ read: 2000 }));
      jest.setSystemTime(11_000);
      progress.update(summary({ read: 2100 }));
      expect(logged).toEqual([['log', 'progress: 2000 records read, 200 records/s, 25%, ETA 30 s']]);
      progress.log('rejected line 3: heading must be a number', 'warn');
      expect(logged.pop()).toEqual(['warn', 'rejected line 3: heading must be a number']);
      expect(out.text()).toBe(''); // through the logger, not written by the display
    } finally {
      jest.useRealTimers();
    }
  });

  it('draws a bar with rate and ETA on a terminal', () => {
    const out = output(true);
    const progress = new ImportProgress({ totalBytes: 1000, bytesRead: () => 400 }, out.stream);
    progress.update(summary({ read: 4000 }));
    progress.log('rejected line 7: lat latitude must be between -90 and 90');
    progress.stop();
    expect(out.text()).toMatch(/40% \| 4000 records \| \d+ records\/s \| ETA/);
    expect(out.text()).toContain('rejected line 7: lat latitude must be between -90 and 90');
  });

  it('shows records and rate without a total for standard input', () => {
    const out = output(true);
    const progress = new ImportProgress({ bytesRead: () => 0 }, out.stream);
    progress.update(summary({ read: 42 }));
    progress.stop();
    expect(out.text()).toMatch(/42 records \| \d+ records\/s/);
    expect(out.text()).not.toContain('ETA');
  });
});
