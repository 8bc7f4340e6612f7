import { decodeCursor, encodeCursor } from '../../src/stac/stac-cursor';
import { parseDatetime } from '../../src/stac/stac-datetime';
import { applyFields, parseFields } from '../../src/stac/stac-fields';
import { filterFromJson } from '../../src/stac/stac-filter';
import { filterFromText } from '../../src/stac/stac-filter-text';
import { filterSql } from '../../src/stac/stac-filter.sql';
import { parseSearch, SEARCH_PARAMETERS } from '../../src/stac/stac-search-parameters';
import { StacException } from '../../src/stac/stac.exception';

// The STAC API's parameters read without a database: the capture day an instant falls on, the cursor,
// CQL2 text and JSON read alike, a timestamp comparison as a date comparison, fields.
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof StacException) return error.details?.[0]?.field;
    throw error;
  }
  return undefined;
};

describe('STAC parameters', () => {
  it.each([
    ['2019-06-05T00:00:00Z', { from: '2019-06-05', to: '2019-06-05' }],
    ['2019-06-05T23:30:00-02:00', { from: '2019-06-06', to: '2019-06-06' }],
    ['2019-06-05T01:30:00+02:00', { from: '2019-06-04', to: '2019-06-04' }],
    ['2019-06-05', { from: '2019-06-05', to: '2019-06-05' }],
    ['2019-01-01T00:00:00Z/..', { from: '2019-01-01', to: undefined }],
    ['/2019-01-01T00:00:00Z', { from: undefined, to: '2019-01-01' }],
    ['0000-01-01T00:00:00Z/9999-12-31T23:59:59Z', { from: '0001-01-01', to: '9999-12-31' }],
  ])('reads datetime %s as the capture days %j', (value, days) => {
    expect(parseDatetime(value)).toEqual(days);
  });

  it.each(['2019-13-01T00:00:00Z', '2019-02-29', 'a/b/c', '2019-06-05T00:00:00', '2020-01-02/2020-01-01'])(
    'refuses datetime %s',
    (value) => expect(refusal(() => parseDatetime(value))).toBe('datetime'),
  );

  it('writes a token that reads back only the way it was sorted', () => {
    const cursor = { direction: 'asc' as const, capturedAt: '2019-06-05', id: '8f0a7bd4-4b7c-5d43-9a55-d0c2b3e1f0aa' };
    expect(decodeCursor(encodeCursor(cursor), 'asc')).toEqual(cursor);
    expect(refusal(() => decodeCursor(encodeCursor(cursor), 'desc'))).toBe('token');
    expect(refusal(() => decodeCursor(Buffer.from('asc:2019-06-05:x').toString('base64url'), 'asc'))).toBe('token');
  });

  it('reads CQL2 text and CQL2 JSON into the same filter', () => {
    const text = filterFromText(
      `interactive = TRUE AND ("view:azimuth" < 90 OR NOT collection = 'a''b') AND datetime >= DATE('2019-01-01')`,
    );
    const json = filterFromJson({
      op: 'and',
      args: [
        { op: '=', args: [{ property: 'interactive' }, true] },
        {
          op: 'or',
          args: [
            { op: '<', args: [{ property: 'view:azimuth' }, 90] },
            { op: 'not', args: [{ op: '=', args: [{ property: 'collection' }, "a'b"] }] },
          ],
        },
        { op: '>=', args: [{ property: 'datetime' }, { date: '2019-01-01' }] },
      ],
    });
    expect(text).toEqual(json);
  });

  it.each([
    ['>=', '2019-03-15T12:00:00Z', 'i.captured_at >= $1::date', '2019-03-16'],
    ['>=', '2019-03-15T00:00:00Z', 'i.captured_at >= $1::date', '2019-03-15'],
    ['>', '2019-03-15T00:00:00Z', 'i.captured_at > $1::date', '2019-03-15'],
    ['<', '2019-03-15T12:00:00Z', 'i.captured_at < $1::date', '2019-03-16'],
    ['<=', '2019-03-15T12:00:00Z', 'i.captured_at <= $1::date', '2019-03-15'],
    ['=', '2019-03-15T00:00:00Z', 'i.captured_at = $1::date', '2019-03-15'],
  ])('compares datetime %s %s as the capture date (%s with %s)', (op, at, sql, day) => {
    const filter = filterFromText(`datetime ${op} TIMESTAMP('${at}')`);
    const statement = filterSql(filter);
    expect([statement.text, statement.values]).toEqual([sql, [day]]);
  });

  it('matches no item for datetime equal to an instant inside a day', () => {
    expect(filterSql(filterFromText("datetime = TIMESTAMP('2019-03-15T12:00:00Z')")).text).toBe('false');
  });

  it('keeps or drops the members fields names', () => {
    const item = { type: 'Feature', id: 'x', properties: { title: 't', datetime: 'd' }, links: [], assets: {} };
    expect(applyFields(item, parseFields('properties.title'))).toEqual({
      type: 'Feature',
      id: 'x',
      properties: { title: 't' },
    });
    expect(applyFields(item, parseFields('-links,-properties.datetime'))).toEqual({
      type: 'Feature',
      id: 'x',
      properties: { title: 't' },
      assets: {},
    });
    expect(applyFields(item, { include: ['links'], exclude: ['links', 'id'] })).toEqual({
      type: 'Feature',
      id: 'x',
      links: [],
    });
  });

  it('names the parameter at fault, and refuses one it does not know', () => {
    expect(refusal(() => parseSearch({ limit: '0' }, 'query', SEARCH_PARAMETERS))).toBe('limit');
    expect(refusal(() => parseSearch({ query: 'x' }, 'body', SEARCH_PARAMETERS))).toBe('query');
    expect(parseSearch({ limit: 1_000_000 }, 'body', SEARCH_PARAMETERS).limit).toBe(1000);
  });
});
