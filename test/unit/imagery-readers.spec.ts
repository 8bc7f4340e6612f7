import { gzipSync } from 'node:zlib';
import { readFeatures } from '../../src/imagery/formats/imagery-feature.reader';
import { formatFromPath, openInput } from '../../src/import-formats/import-input';
import { FeatureItem } from '../../src/imagery/imagery-feature';
import { readGeoJsonCollection } from '../../src/import-formats/geojson-collection.reader';
import { MAX_RECORD_BYTES, readGeoJsonSeq } from '../../src/import-formats/geojson-seq.reader';
import { collect, feature, stream, summary } from '../helpers/feature-streams';

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
  const lines = [
    JSON.stringify(feature('one')),
    '',
    '  ',
    JSON.stringify(feature('two')),
    '{"type": oops',
    JSON.stringify(feature('three')),
  ];

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
    const items = await collect(
      readGeoJsonSeq(stream(`${JSON.stringify(feature('a'))}\n\u001e${JSON.stringify(feature('b'))}\n`)),
    );
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
    const text = JSON.stringify({
      type: 'FeatureCollection',
      name: 'x',
      features: [feature('a'), 7, feature('c')],
      bbox: [0, 0, 1, 1],
    });
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

  it.each([0, 7])(
    'reads every feature before invalid JSON, then reports where it broke off (chunks of %i)',
    async (chunk) => {
      const good = Array.from({ length: 50 }, (_, i) => JSON.stringify(feature(`f${i}`)));
      const text = `{"type":"FeatureCollection","features":[${good.join(',')},{"type": oops}]}`;
      const seen: number[] = [];
      await expect(
        (async () => {
          for await (const item of readGeoJsonCollection(stream(text, chunk))) seen.push(item.position);
        })(),
      ).rejects.toThrow(/not valid JSON \(after feature 49\)/);
      expect(seen).toEqual(good.map((_, i) => i));
    },
  );
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

  it.each(['csv', 'ndjson'] as const)(
    'never yields a cut-off record when a gzip %s input breaks off',
    async (format) => {
      const rows = Array.from({ length: 3000 }, (_, i) =>
        format === 'csv'
          ? `,Street ${i},2020-01-02,90,true,/a.jpg,9.5,47.123456`
          : JSON.stringify({ ...feature(`Street ${i}`), lat: 47.123456 }),
      );
      const text =
        (format === 'csv' ? 'id,address,captured_at,heading,interactive,image_url,lon,lat\n' : '') +
        rows.join('\n') +
        '\n';
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
    },
  );

  it('reads an empty standard input', async () => {
    const input = await openInput('-', stream(''));
    expect(await collect(readFeatures(input.stream, 'csv'))).toEqual([]);
  });
});
