import { regionByCode } from '../../places/regions';
import { countryNameIn, regionNameIn } from '../../places/region-names-by-language';
import type { SearchResponseDto } from '../dto/search-response.dto';
import type { LocalizablePlace } from '../language/localized-label';
import { languageGroups, localizedLabel, localizedName } from '../language/localized-label';
import type { LocalizedNamesRepository } from '../language/localized-names.repository';
import type { SearchRow } from '../search.repository';

// `lang` (or Accept-Language): the answer's place labels, recovered addresses and region names written in
// the languages asked for (language/localized-label.ts). A record's own address is its own text and is
// never rewritten; a recovered one is, when it is still the label it was recovered from (its place's,
// or "street, locality" for a street: imagery-place-link.repository.ts).

export interface LocalizingAnswer {
  languages: readonly string[];
  rows: readonly SearchRow[];
  region: string | undefined;
}

export async function localizedAnswer(
  a: LocalizingAnswer,
  response: SearchResponseDto,
  repository: Pick<LocalizedNamesRepository, 'places'>,
): Promise<Partial<SearchResponseDto>> {
  const { languages, rows } = a;
  const shown = response.interpretation?.place;
  const ids = new Set<string>(shown ? [shown.id] : []);
  for (const [i, row] of rows.entries()) {
    if (row.placeId) ids.add(row.placeId);
    if (row.placeId && row.localityId) ids.add(row.localityId);
    const attached = response.data[i]?.place;
    if (attached) ids.add(attached.id);
  }
  const places = new Map((await repository.places([...ids], [...languages])).map((p) => [p.id, p]));
  const labelOf = (id: string, stored: string) => {
    const place = places.get(id);
    return place ? localizedLabel(place, languages) : stored;
  };
  const data = response.data.map((record, i) => {
    const address = recoveredAddress(record.address, rows[i], places, languages) ?? record.address;
    return record.place
      ? { ...record, address, place: { ...record.place, label: labelOf(record.place.id, record.place.label) } }
      : { ...record, address };
  });
  const out: Partial<SearchResponseDto> = { data };
  const interpretation = response.interpretation;
  if (interpretation) {
    const named = interpretation.named_region;
    out.interpretation = {
      ...interpretation,
      ...(shown ? { place: { ...shown, label: labelOf(shown.id, shown.label) } } : {}),
      ...(named ? { named_region: { ...named, name: regionOrCountryName(named.code, languages) ?? named.name } } : {}),
    };
  }
  if (a.region !== undefined) out.region = regionOrCountryName(a.region, languages) ?? response.region;
  return out;
}

// A recovered address in the languages, while it is the label it was recovered from; else undefined.
function recoveredAddress(
  address: string,
  row: SearchRow | undefined,
  places: ReadonlyMap<string, LocalizablePlace>,
  languages: readonly string[],
): string | undefined {
  const place = row?.placeId ? places.get(row.placeId) : undefined;
  if (!place) return undefined;
  if (address === place.label) return localizedLabel(place, languages);
  const locality = row?.localityId ? places.get(row.localityId) : undefined;
  if (!locality || address !== `${place.name}, ${locality.label}`) return undefined;
  // "street, locality" in one language, as a label is.
  for (const group of languageGroups(languages)) {
    const name = localizedName(place, group) ?? place.name;
    const label = localizedLabel(locality, group);
    if (name !== place.name || label !== locality.label) return `${name}, ${label}`;
  }
  return address;
}

function regionOrCountryName(code: string, languages: readonly string[]): string | undefined {
  const region = regionByCode(code);
  if (!region) return undefined;
  return region.kind === 'country' ? countryNameIn(region.code, languages) : regionNameIn(region.code, languages);
}
