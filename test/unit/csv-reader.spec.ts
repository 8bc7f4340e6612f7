import { FeatureItem } from '../../src/imagery/imagery-feature';
import { readCsv } from '../../src/imagery/formats/csv.reader';
import { MAX_RECORD_BYTES } from '../../src/import-formats/geojson-seq.reader';
import { collect, stream, summary } from '../helpers/feature-streams';

describe('CSV', () => {
  const header = 'id,address,captured_at,heading,interactive,image_url,lon,lat';
  const row = (address: string, extra = '') => `,${address},2020-01-02,90,true,https://x.test/a.jpg,9.5,47.1${extra}`;

  it('reads quoted fields with commas, quotes, newlines and UTF-8, with exact line numbers', async () => {
    for (const eol of ['\n', '\r\n']) {
      const text =
        '\uFEFF' +
        [
          header,
          row('"Main St, 1"'),
          row(`"Multi${eol}line ""quoted"""`),
          '',
          row('Tübinger Straße'),
          row('plain'),
        ].join(eol) +
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
      id: undefined,
      address: 'a',
      captured_at: '2020-01-02',
      heading: 90.5,
      interactive: false,
      image_url: 'https://x.test/a.jpg',
      lon: -0.001,
      lat: 47,
    });
    expect(second.record).toEqual({ id: 'X', address: 'b', captured_at: undefined, image_url: undefined });
  });

  it('takes columns in any order, ignores unknown ones, and needs no id or interactive column', async () => {
    const text = 'lat,lon,note,image_url,heading,captured_at,address\n47.1,9.5,hello,/a.jpg,1,2020-01-02,Somewhere\n';
    const [item] = await collect(readCsv(stream(text)));
    expect(item.record).toEqual({
      id: undefined,
      address: 'Somewhere',
      captured_at: '2020-01-02',
      heading: 1,
      image_url: '/a.jpg',
      lon: 9.5,
      lat: 47.1,
    });
  });

  it('needs no address column, and reads source and address_origin', async () => {
    const text =
      'captured_at,heading,image_url,lon,lat,source,address_origin\n2020-01-02,1,/a.jpg,9.5,47.1,survey,street\n2020-01-02,2,/b.jpg,9.5,47.1,,\n';
    const [first, second] = await collect(readCsv(stream(text)));
    expect(first.record).toEqual({
      address: undefined,
      source: 'survey',
      address_origin: 'street',
      captured_at: '2020-01-02',
      heading: 1,
      image_url: '/a.jpg',
      lon: 9.5,
      lat: 47.1,
    });
    expect(second.record).toMatchObject({ address: undefined, source: undefined, address_origin: undefined });
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
