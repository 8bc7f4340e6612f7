import { once } from 'node:events';
import { createWriteStream, WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';

// --report: every rejection as one JSON object per line, written with backpressure.
export class RejectionReport {
  private constructor(private readonly stream: WriteStream) {}

  static async open(path: string): Promise<RejectionReport> {
    const stream = createWriteStream(path);
    await once(stream, 'open'); // an unwritable path fails before any import work
    return new RejectionReport(stream);
  }

  async write(entry: object): Promise<void> {
    if (!this.stream.write(`${JSON.stringify(entry)}\n`)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    this.stream.end();
    await finished(this.stream);
  }
}
