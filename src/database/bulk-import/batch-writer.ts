// What BatchWriter needs of an import session.
export interface BatchSession<R, C> {
  /** Batches it can write at once. */
  readonly connections: number;
  writeBatch(rows: R[]): Promise<C>;
}

// Writes up to `session.connections` batches at once while the caller reads the next one (one: in input
// order). A batch that shares an id with one in flight waits for it, so the later copy of a row always
// wins. `T`: what the caller keeps per row (a record and where it was read); `row` gives the row.
export class BatchWriter<T, R, C> {
  private inflight: Array<{ ids: ReadonlyMap<string, T>; done: Promise<void> }> = [];
  private failure: unknown;

  constructor(
    private readonly session: BatchSession<R, C>,
    private readonly row: (item: T) => R,
    private readonly onWritten: (counts: C, batch: ReadonlyMap<string, T>) => void | Promise<void>,
  ) {}

  // `batch`: rows keyed by id.
  async write(batch: ReadonlyMap<string, T>): Promise<void> {
    for (const other of [...this.inflight]) {
      if ([...batch.keys()].some((id) => other.ids.has(id))) await other.done;
    }
    while (this.inflight.length >= this.session.connections) await Promise.race(this.inflight.map((b) => b.done));
    if (this.failure) await this.drain();
    const entry = { ids: batch, done: Promise.resolve() };
    entry.done = this.session
      .writeBatch([...batch.values()].map(this.row))
      .then((counts) => this.onWritten(counts, batch))
      .then(
        () => {
          this.inflight = this.inflight.filter((b) => b !== entry);
        },
        (error) => {
          this.failure ??= error;
          this.inflight = this.inflight.filter((b) => b !== entry);
        },
      );
    this.inflight.push(entry);
  }

  // Waits for every batch in flight; the first failure, if any, is thrown. Also before a failure is
  // thrown: the caller goes on with the connections (a first load's end builds indexes on them), and a
  // statement sent while a batch is in flight would run inside that batch's transaction.
  async drain(): Promise<void> {
    await this.settle();
    this.throwIfFailed();
  }

  // Waits for every batch in flight, whatever their outcome (theirs is thrown by the next write or drain).
  async settle(): Promise<void> {
    await Promise.all(this.inflight.map((b) => b.done));
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
