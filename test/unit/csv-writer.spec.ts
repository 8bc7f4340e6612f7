import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvWriter } from '../../src/imagery/formats/csv.writer';
import { readCsv } from '../../src/imagery/formats/csv.reader';
import { ImageryRecord, validateRecord } from '../../src/imagery/imagery-feature';

const record = (heading: number | null): ImageryRecord => ({
  id: '0b9f5c1e-3a2d-4c6b-8e7f-1a2b3c4d5e6f',
  address: 'Herrengasse 35 Vaduz',
  addressOrigin: 'own',
  source: null,
  capturedAt: '2024-05-01',
  heading,
  interactive: false,
  imageUrl: 'https://img.test/1.jpg',
  lon: 9.5215,
  lat: 47.1395,
});

async function csvOf(records: ImageryRecord[]): Promise<string> {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  await (pipeline as (...streams: unknown[]) => Promise<void>)(Readable.from(records), ...csvWriter(), sink);
  return text;
}

describe('csvWriter', () => {
  it('writes a heading at full precision, and none as an empty cell that an import refuses (CSV has no photo)', async () => {
    const text = await csvOf([record(273.125), record(null)]);
    const [, known, unknown] = text.trim().split('\n');
    expect(known.split(',')[3]).toBe('273.125');
    expect(unknown.split(',')[3]).toBe('');
    const read = [];
    for await (const item of readCsv(Readable.from([text]))) read.push(validateRecord(item.record!));
    expect(read[0]).toMatchObject({ ok: true, record: { heading: 273.125 } });
    expect(read[1]).toEqual({
      ok: false,
      rejection: { field: 'heading', reason: 'is required and must be a number of degrees' },
    });
  });
});
