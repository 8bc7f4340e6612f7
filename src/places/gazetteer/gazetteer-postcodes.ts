import { PlaceRecord } from '../place-record';
import { regionEntry } from '../regions';
import { gazetteerPlace } from './gazetteer-place';
import { UsZip } from './gazetteer-sources';
import { joinAltNames } from './name-variants';
import { POSTCODE_IMPORTANCE } from './place-importance';

const US_NAMES = ['US', 'USA', 'United States'];

/** "Springfield, IL 62701, United States": the way US addresses are written. */
export function usZipLabel(zip: Pick<UsZip, 'zip' | 'city' | 'state'>): string {
  return `${zip.city}, ${zip.state} ${zip.zip}, United States`;
}

/** US ZIP codes (usZips: places only): name and postcode the ZIP, locality its city, region its state (US-XX). */
export function buildUsPostcodes(zips: UsZip[]): PlaceRecord[] {
  const out: PlaceRecord[] = [];
  for (const z of [...zips].sort((a, b) => (a.zip < b.zip ? -1 : 1))) {
    // Territories with ZIP codes (PR, GU, VI, ...) are no US region in ISO 3166-2's first level here.
    const region = regionEntry(`US-${z.state}`);
    const label = usZipLabel(z);
    out.push(
      gazetteerPlace(`zip:${z.zip}`, {
        kind: 'postcode',
        name: z.zip,
        postcode: z.zip,
        locality: z.city,
        region: region?.name ?? null,
        regionCode: region?.code ?? null,
        countryCode: 'US',
        label,
        // Only the state's codes and the country's: a ZIP is found by its number, city and state.
        altNames: joinAltNames(label, [...(region ? [region.shortCode, region.code] : []), ...US_NAMES]),
        lon: z.longitude,
        lat: z.latitude,
        importance: POSTCODE_IMPORTANCE,
      }),
    );
  }
  return out;
}
