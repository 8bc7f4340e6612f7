import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { CSV_NUMBER, quoteCell, readCsvTable } from '../../import-formats/csv-table.reader';
import { PlaceException, PlaceExceptionCode } from '../place.exception';
import type { PlaceItem } from '../place-item';
import type { RawPlace } from '../place-validation';
import { regionByCode } from '../regions';

// OpenAddresses' CSV columns (the header names them; any order, case-insensitive, others ignored).
export const OPENADDRESSES_COLUMNS = [
  'LON',
  'LAT',
  'NUMBER',
  'STREET',
  'UNIT',
  'CITY',
  'DISTRICT',
  'REGION',
  'POSTCODE',
  'ID',
  'HASH',
] as const;
type Column = (typeof OPENADDRESSES_COLUMNS)[number];
const FIELD_NAMES = {
  lon: 'LON',
  lat: 'LAT',
  housenumber: 'NUMBER',
  street: 'STREET',
  postcode: 'POSTCODE',
  locality: 'CITY',
  region: 'REGION',
  id: 'HASH',
};
const REQUIRED: readonly Column[] = ['LON', 'LAT', 'NUMBER', 'STREET'];
// OpenAddresses writes first-level regions by their short code where a country has them ("IL", "BE").
const REGION_SHORT_CODE = /^[A-Z0-9]{1,3}$/;

export interface OpenAddressesOptions {
  /** The file's country (OpenAddresses files are per country or region); makes REGION a region code. */
  countryCode?: string | null;
}

// One address per row. The source id is HASH, else ID, else a hash of the row itself, so a re-import
// of the same file matches its rows. UNIT is kept out of the place (units share their building's
// point and label) but in the row hash.
export async function* readOpenAddresses(
  input: Readable,
  options: OpenAddressesOptions = {},
): AsyncGenerator<PlaceItem> {
  const country = options.countryCode?.toUpperCase() ?? null;
  for await (const row of readCsvTable(input, readHeader)) {
    if ('rejection' in row) {
      yield { position: row.line, rejection: row.rejection };
      continue;
    }
    const cell = (c: Column) => {
      const i = row.header.get(c);
      const value = i === undefined ? '' : row.cells[i].trim();
      return value === '' ? undefined : value;
    };
    const coordinates: Partial<Record<'lon' | 'lat', number>> = {};
    let bad: PlaceItem | undefined;
    for (const [c, key] of [
      ['LON', 'lon'],
      ['LAT', 'lat'],
    ] as const) {
      const value = cell(c);
      if (value === undefined) continue; // validation says it is required
      if (!CSV_NUMBER.test(value))
        bad ??= { position: row.line, rejection: { field: c, reason: `must be a number, got ${quoteCell(value)}` } };
      coordinates[key] = Number(value);
    }
    if (bad) {
      yield bad;
      continue;
    }
    const region = cell('REGION');
    const regionCode =
      country && region && REGION_SHORT_CODE.test(region.toUpperCase())
        ? `${country}-${region.toUpperCase()}`
        : undefined;
    const place: RawPlace = {
      kind: 'address',
      housenumber: cell('NUMBER'),
      street: cell('STREET'),
      postcode: cell('POSTCODE'),
      locality: cell('CITY') ?? cell('DISTRICT'),
      // A known region code names the region itself ("Illinois", not "IL").
      region: regionCode && regionByCode(regionCode) ? undefined : region,
      region_code: regionCode,
      country_code: country ?? undefined,
      id: cell('HASH') ?? cell('ID') ?? `row:${createHash('sha1').update(JSON.stringify(row.cells)).digest('hex')}`,
      ...coordinates,
    };
    yield { position: row.line, place, fieldNames: FIELD_NAMES };
  }
}

function readHeader(names: string[]): Map<Column, number> {
  const header = new Map<Column, number>();
  names.forEach((raw, i) => {
    const name = raw.trim().toUpperCase() as Column;
    if (!OPENADDRESSES_COLUMNS.includes(name)) return;
    if (header.has(name))
      throw new PlaceException(PlaceExceptionCode.INVALID_INPUT, `the CSV header names "${name}" twice`);
    header.set(name, i);
  });
  const missing = REQUIRED.filter((c) => !header.has(c));
  if (missing.length > 0) {
    throw new PlaceException(
      PlaceExceptionCode.INVALID_INPUT,
      `the CSV header lacks ${missing.join(', ')}; OpenAddresses files have the columns ${OPENADDRESSES_COLUMNS.join(',')}`,
    );
  }
  return header;
}
