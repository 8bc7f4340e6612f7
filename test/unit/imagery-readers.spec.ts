import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { FeatureItem, formatFromPath, openInput, readFeatures } from '../../src/imagery/feature-reader';
import { readCsv } from '../../src/imagery/formats/csv.reader';
import { readGeoJsonCollection } from '../../src/imagery/formats/geojson-collection.reader';
import { MAX_RECORD_BYTES, readGeoJsonSeq } from '../../src/imagery/formats/geojson-seq.reader';

// In-memory streams, optionally cut into tiny chunks so every boundary case is crossed.
const stream = (text: string | Buffer, chunkSize = 0) => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  if (!chunkSize) return Readable.from([bytes]);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return Readable.from(chunks);
};

async function collect(items: AsyncIterable<FeatureItem>): Promise<FeatureItem[]> {
  const out: FeatureItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const feature = (address: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { address } });
const summary = (items: FeatureItem[]) =>
  items.map((i) => (i.rejection ? [i.position, i.rejection.reason] : [i.position, (i.feature as any)?.properties?.address ?? i.record?.address]));

describe('formatFromPath', () => {
  it.each([
    ['a.geojson', 'geojson'],
    ['a.JSON', 'geojson'],
    ['a.geojsons', 'geojsonseq'],
    ['a.ndjson', 'ndjson'],
    ['a.geojsonl.gz', 'ndjson'],
    ['dir.v2/a.csv.gz', 'csv'],
    ['a.txt', undefined],
    ['-', undefined],
  ])('%s -> %s', (path, format) => expect(formatFromPath(path)).toBe(format));
});

describe('GeoJSON text sequences and NDJSON', () => {
  const lines = [JSON.stringify(feature('one')), '', '  ', JSON.stringify(feature('two')), '{"type": oops', JSON.stringify(feature('three'))];

  it.each([
    ['LF', '\n', 0],
    ['CRLF', '\r\n', 0],
    ['LF in 1-byte chunks', '\n', 1],
    ['CRLF in 3-byte chunks', '\r\n', 3],
  ])('reads %s with line numbers, skipping blank lines', async (_name, eol, chunk) => {
    const items = await collect(readGeoJsonSeq(stream('\uFEFF' + lines.join(eol) + eol, chunk)));
    expect(summary(items)).toEqual([
      [1, 'one'],
      [4, 'two'],
      [5, 'malformed JSON'],
      [6, 'three'],
    ]);
  });

  it('reads RFC 8142 text sequences, including records that span lines', async () => {
    const pretty = JSON.stringify(feature('pretty'), null, 2); // 14 lines
    const text = `\n\u001e${JSON.stringify(feature('one'))}\n\u001e${pretty}\n\u001e{"broken\n\u001e${JSON.stringify(feature('last'))}\n`;
    for (const chunk of [0, 1, 7]) {
      const items = await collect(readGeoJsonSeq(stream(text, chunk)));
      expect(summary(items)).toEqual([
        [2, 'one'],
        [3, 'pretty'],
        [3 + pretty.split('\n').length, 'malformed JSON'],
        [4 + pretty.split('\n').length, 'last'],
      ]);
    }
  });

  it('accepts a leading RS on some lines of a newline-delimited file', async () => {
    const items = await collect(readGeoJsonSeq(stream(`${JSON.stringify(feature('a'))}\n\u001e${JSON.stringify(feature('b'))}\n`)));
    expect(summary(items)).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });

  it('rejects a line that is too long or not UTF-8 and reads on', async () => {
    const long = `{"x":"${'a'.repeat(MAX_RECORD_BYTES)}"}`;
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    const input = Buffer.concat([Buffer.from(`${long}\n`), bad, Buffer.from(`${JSON.stringify(feature('after'))}`)]);
    const items = await collect(readGeoJsonSeq(stream(input, 64 * 1024)));
    expect(summary(items)).toEqual([
      [1, `longer than ${MAX_RECORD_BYTES} bytes`],
      [2, 'not valid UTF-8'],
      [3, 'after'],
    ]);
  });

  it('reads an empty input as no records', async () => {
    expect(await collect(readGeoJsonSeq(stream('')))).toEqual([]);
    expect(await collect(readGeoJsonSeq(stream('\n\r\n  \n')))).toEqual([]);
  });
});

describe('FeatureCollection', () => {
  it('streams features with their index', async () => {
    const text = JSON.stringify({ type: 'FeatureCollection', name: 'x', features: [feature('a'), 7, feature('c')], bbox: [0, 0, 1, 1] });
    const items = await collect(readGeoJsonCollection(stream(text, 5)));
    expect(items.map((i) => i.position)).toEqual([0, 1, 2]);
    expect(items[1].feature).toBe(7);
    expect((items[2].feature as any).properties.address).toBe('c');
  });

  it('accepts "type" after "features" and an empty collection', async () => {
    expect(await collect(readGeoJsonCollection(stream('{"features":[],"type":"FeatureCollection"}')))).toEqual([]);
  });

  it.each([
    ['an array', '[{"type":"Feature"}]'],
    ['a single Feature', JSON.stringify(feature('a'))],
    ['a collection without features', '{"type":"FeatureCollection"}'],
    ['features that are not an array', '{"type":"FeatureCollection","features":{}}'],
    ['another type', '{"type":"GeometryCollection","features":[]}'],
  ])('refuses %s clearly', async (_name, text) => {
    await expect(collect(readGeoJsonCollection(stream(text)))).rejects.toThrow(/not a GeoJSON FeatureCollection/);
  });

  it.each([0, 7])('reads every feature before invalid JSON, then reports where it broke off (chunks of %i)', async (chunk) => {
    const good = Array.from({ length: 50 }, (_, i) => JSON.stringify(feature(`f${i}`)));
    const text = `{"type":"FeatureCollection","features":[${good.join(',')},{"type": oops}]}`;
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of readGeoJsonCollection(stream(text, chunk))) seen.push(item.position);
      })(),
    ).rejects.toThrow(/not valid JSON \(after feature 49\)/);
    expect(seen).toEqual(good.map((_, i) => i));
  });
});

describe('CSV', () => {
  const header = 'id,address,captured_at,heading,interactive,image_url,lon,lat';
  const row = (address: string, extra = '') => `,${address},2020-01-02,90,true,https://x.test/a.jpg,9.5,47.1${extra}`;

  it('reads quoted fields with commas, quotes, newlines and UTF-8, with exact line numbers', async () => {
    for (const eol of ['\n', '\r\n']) {
      const text =
        '\uFEFF' +
        [header, row('"Main St, 1"'), row(`"Multi${eol}line ""quoted"""`), '', row('Tübinger Straße'), row('plain')].join(eol) +
        eol;
      for (const chunk of [0, 2]) {
        const items = await collect(readCsv(stream(text, chunk)));
        expect(summary(items)).toEqual([
          [2, 'Main St, 1'],
          [3, `Multi${eol}line "quoted"`],
          [6, 'Tübinger Straße'],
          [7, 'plain'],
        ]);
      }
    }
  });

  it('types fields: numbers, booleans, empty cells as missing', async () => {
    const text = `${header}\n,a,2020-01-02, 90.5 ,FALSE,https://x.test/a.jpg,-1e-3,+47\nX,b,,,,,,\n`;
    const [first, second] = await collect(readCsv(stream(text)));
    expect(first.record).toEqual({
      id: undefined, address: 'a', captured_at: '2020-01-02', heading: 90.5, interactive: false, image_url: 'https://x.test/a.jpg', lon: -0.001, lat: 47,
    });
    expect(second.record).toEqual({ id: 'X', address: 'b', captured_at: undefined, image_url: undefined });
  });

  it('takes columns in any order, ignores unknown ones, and needs no id or interactive column', async () => {
    const text = 'lat,lon,note,image_url,heading,captured_at,address\n47.1,9.5,hello,/a.jpg,1,2020-01-02,Somewhere\n';
    const [item] = await collect(readCsv(stream(text)));
    expect(item.record).toEqual({ id: undefined, address: 'Somewhere', captured_at: '2020-01-02', heading: 1, image_url: '/a.jpg', lon: 9.5, lat: 47.1 });
  });

  it.each([
    ['a missing column', 'id,address,captured_at,heading,image_url,lon\n', /lacks lat/],
    ['a duplicate column', `${header},lat\n`, /names "lat" twice/],
  ])('refuses a header with %s', async (_name, text, message) => {
    await expect(collect(readCsv(stream(text)))).rejects.toThrow(message);
  });

  it('rejects rows with the wrong field count or wrong types, one by one', async () => {
    const text = [
      header,
      row('ok'),
      ',short,2020-01-02',
      row('toolong', ',extra'),
      ',a,2020-01-02,north,true,https://x.test/a.jpg,9.5,47.1',
      ',a,2020-01-02,90,maybe,https://x.test/a.jpg,9.5,47.1',
      ',a,2020-01-02,90,true,https://x.test/a.jpg,9.5.1,47.1',
      ',a,2020-01-02,90,true,https://x.test/a.jpg,9.5,0x10',
      row('stray "quote" kept'),
    ].join('\n');
    const items = await collect(readCsv(stream(text)));
    expect(items.map((i) => [i.position, i.rejection?.field ?? i.record?.address, i.rejection?.reason])).toEqual([
      [2, 'ok', undefined],
      [3, '(record)', 'has 3 fields; the header has 8'],
      [4, '(record)', 'has 9 fields; the header has 8'],
      [5, 'heading', 'must be a number, got "north"'],
      [6, 'interactive', 'must be true or false, got "maybe"'],
      [7, 'lon', 'must be a number, got "9.5.1"'],
      [8, 'lat', 'must be a number, got "0x10"'],
      [9, 'stray "quote" kept', undefined],
    ]);
  });

  it('rejects a last record whose quote never closes, after reading everything before it', async () => {
    const items = await collect(readCsv(stream(`${header}\n${row('ok')}\n${row('"never closed')}\n`)));
    expect(summary(items)).toEqual([
      [2, 'ok'],
      [3, 'a quoted field is not closed before the end of the file'],
    ]);
  });

  it('stops with a clear error, not unbounded memory, on a runaway quoted field', async () => {
    const text = `${header}\n${row('ok')}\n${row(`"${'x'.repeat(MAX_RECORD_BYTES + 10)}`)}\n${row('after')}\n`;
    const seen: FeatureItem[] = [];
    await expect(
      (async () => {
        for await (const item of readCsv(stream(text, 64 * 1024))) seen.push(item);
      })(),
    ).rejects.toThrow(/line 3: a record is longer than/);
    expect(summary(seen)).toEqual([[2, 'ok']]);
  });
});

describe('openInput', () => {
  it('recognises gzip by its magic bytes, on standard input too', async () => {
    const text = `${JSON.stringify(feature('zipped'))}\n`;
    for (const bytes of [gzipSync(text), Buffer.from(text)]) {
      const input = await openInput('-', stream(bytes, 3));
      expect(input.gzip).toBe(bytes[0] === 0x1f);
      expect(summary(await collect(readFeatures(input.stream, 'ndjson')))).toEqual([[1, 'zipped']]);
    }
  });

  it.each(['csv', 'ndjson'] as const)('never yields a cut-off record when a gzip %s input breaks off', async (format) => {
    const rows = Array.from({ length: 3000 }, (_, i) =>
      format === 'csv' ? `,Street ${i},2020-01-02,90,true,/a.jpg,9.5,47.123456` : JSON.stringify({ ...feature(`Street ${i}`), lat: 47.123456 }),
    );
    const text = (format === 'csv' ? 'id,address,captured_at,heading,interactive,image_url,lon,lat\n' : '') + rows.join('\n') + '\n';
    const zipped = gzipSync(text);
    const input = await openInput('-', stream(zipped.subarray(0, Math.floor(zipped.length * 0.6)), 1024));
    const seen: FeatureItem[] = [];
    await expect(
      (async () => {
        for await (const item of readFeatures(input.stream, format)) seen.push(item);
      })(),
    ).rejects.toThrow(/unexpected end of file/);
    expect(seen.length).toBeGreaterThan(100);
    for (const item of seen) {
      expect(item.rejection).toBeUndefined();
      if (format === 'csv') expect(item.record?.lat).toBe(47.123456);
      else expect((item.feature as any).lat).toBe(47.123456);
    }
  });

  it('reads an empty standard input', async () => {
    const input = await openInput('-', stream(''));
    expect(await collect(readFeatures(input.stream, 'csv'))).toEqual([]);
  });
});
