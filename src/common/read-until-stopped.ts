export type ReadOutcome = 'complete' | 'interrupted' | 'input-error';

export interface ReadResult {
  /** complete: the input was read to its end; interrupted: stopped by the signal; input-error: unreadable. */
  outcome: ReadOutcome;
  inputError?: string;
}

// Reads every item of an import's input and hands it to `onItem` (which may wait, for backpressure),
// until the input ends, the signal aborts or the input fails. An error from the input is an outcome (its
// message kept); an error from onItem (a database failure) is thrown after the input is closed.
// Stopping early closes the input; with a read still pending (an idle standard input interrupted) the
// close is only requested, and the caller, who owns the stream, ends it.
export async function readUntilStopped<T>(
  items: AsyncIterable<T>,
  onItem: (item: T) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<ReadResult> {
  const iterator = items[Symbol.asyncIterator]();
  const reads = new AbortableReads(iterator, signal);
  let exhausted = false;
  let waiting = false;
  let result: ReadResult = { outcome: 'complete' };
  try {
    for (;;) {
      if (signal?.aborted) {
        result = { outcome: 'interrupted' };
        break;
      }
      let next: IteratorResult<T> | undefined;
      try {
        next = await reads.next();
      } catch (error) {
        result = { outcome: 'input-error', inputError: (error as Error).message };
        break;
      }
      if (next === undefined) {
        result = { outcome: 'interrupted' };
        waiting = true;
        break;
      }
      if (next.done) {
        exhausted = true;
        break;
      }
      await onItem(next.value);
    }
  } finally {
    if (!exhausted && result.outcome !== 'input-error') {
      const closing = iterator.return?.().catch(() => undefined);
      if (!waiting) await closing;
    }
  }
  return result;
}

// Reads the next item, or gives undefined as soon as the signal aborts (an idle standard input must
// not hold up Ctrl-C). One abort listener for the whole import wakes whichever read is pending; racing
// a long-pending promise instead would leave a reaction behind on it for every record.
class AbortableReads<T> {
  private wake?: () => void;

  constructor(
    private readonly iterator: AsyncIterator<T>,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  next(): Promise<IteratorResult<T> | undefined> {
    if (!this.signal) return this.iterator.next();
    if (this.signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.wake = () => resolve(undefined);
      this.iterator.next().then(
        (result) => {
          this.wake = undefined;
          resolve(result);
        },
        (error) => {
          this.wake = undefined;
          reject(error);
        },
      );
    });
  }
}
