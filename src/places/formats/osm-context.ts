import type { RawPlace } from '../place-validation';
import type { InterpolationEnd } from './osm-interpolation';
import type { OsmTags } from './osm-tags';

// OpenStreetMap streets never say which town they are in, and many addresses leave out addr:city or
// addr:postcode. osmium writes every node before any way, so by the time a street (a way) arrives the
// address nodes and place nodes around it have been seen: a street or address without a locality or
// postcode takes those of an address on the same street (in the same municipality) within about 2 km,
// else the locality of the nearest city, town or village within about 10 km. The same file always gives the same places, so
// re-imports stay idempotent. Memory is bounded: at most MAX_CONTEXT_ENTRIES of each are kept (past
// that, later places are not completed).
export const MAX_CONTEXT_ENTRIES = 200_000;
const STREET_CELL = 0.02; // degrees of a grid cell for same-street neighbours
const TOWN_CELL = 0.1; // degrees of a grid cell for towns
const TOWN_TYPES = new Set(['city', 'town', 'village']);

interface Town {
  name: string;
  lon: number;
  lat: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const cell = (lon: number, lat: number, size: number): [number, number] => [
  Math.floor(lon / size),
  Math.floor(lat / size),
];

export class OsmContext {
  private readonly houses = new Map<string, InterpolationEnd>();
  private readonly streets = new Map<string, { postcode?: string; locality: string }>();
  private readonly towns = new Map<string, Town[]>();
  private townCount = 0;

  // Fills a street's or address's missing postcode and locality (from the same street, else the
  // locality from the nearest town) in place.
  complete(place: RawPlace): void {
    if (place.kind !== 'street' && place.kind !== 'address') return;
    if (str(place.locality) && str(place.postcode)) return;
    const lon = place.lon as number;
    const lat = place.lat as number;
    const street = str(place.street);
    // A street that crosses a municipal boundary: only a neighbour in the same municipality counts.
    const neighbour = street ? this.sameStreet(`${street}\u0000${str(place.municipality) ?? ''}`, lon, lat) : undefined;
    if (neighbour) {
      place.locality ??= neighbour.locality;
      place.postcode ??= neighbour.postcode;
      return;
    }
    const town = str(place.locality) ? undefined : this.nearestTown(lon, lat);
    if (town) place.locality = town.name;
  }

  // Remembers an address that knows its locality, and a city, town or village (`placeType`: its place=*).
  learn(place: RawPlace, placeType: string | undefined): void {
    const lon = place.lon as number;
    const lat = place.lat as number;
    const street = str(place.street);
    const locality = str(place.locality);
    if (place.kind === 'address' && street && locality && this.streets.size < MAX_CONTEXT_ENTRIES) {
      const [x, y] = cell(lon, lat, STREET_CELL);
      const key = `${street}\u0000${str(place.municipality) ?? ''}\u0000${x}\u0000${y}`;
      // The first address of a street in a cell that has a postcode, else the first at all.
      const known = this.streets.get(key);
      if (!known || (!known.postcode && str(place.postcode)))
        this.streets.set(key, { postcode: str(place.postcode), locality });
    }
    const name = str(place.name);
    if (
      place.kind === 'locality' &&
      name &&
      placeType &&
      TOWN_TYPES.has(placeType) &&
      this.townCount < MAX_CONTEXT_ENTRIES
    ) {
      const key = cell(lon, lat, TOWN_CELL).join(',');
      const list = this.towns.get(key) ?? [];
      list.push({ name, lon, lat });
      this.towns.set(key, list);
      this.townCount++;
    }
  }

  // Remembers an address node by its position, as the end of an interpolation line may be.
  rememberHouse(lon: number, lat: number, tags: OsmTags): void {
    const housenumber = tags['addr:housenumber'];
    if (!housenumber || this.houses.size >= MAX_CONTEXT_ENTRIES) return;
    this.houses.set(`${lon},${lat}`, {
      housenumber,
      street: tags['addr:street'] ?? tags['addr:place'],
      postcode: tags['addr:postcode'],
      locality: tags['addr:city'],
    });
  }

  // The address node at exactly this position, if one was remembered.
  houseAt(position: unknown): InterpolationEnd | undefined {
    return Array.isArray(position) ? this.houses.get(`${position[0]},${position[1]}`) : undefined;
  }

  private sameStreet(street: string, lon: number, lat: number) {
    const [x, y] = cell(lon, lat, STREET_CELL);
    // The street's own cell first, then its neighbours, in a fixed order.
    for (const [dx, dy] of [
      [0, 0],
      [-1, 0],
      [1, 0],
      [0, -1],
      [0, 1],
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ]) {
      const found = this.streets.get(`${street}\u0000${x + dx}\u0000${y + dy}`);
      if (found) return found;
    }
    return undefined;
  }

  private nearestTown(lon: number, lat: number): Town | undefined {
    const [x, y] = cell(lon, lat, TOWN_CELL);
    const scale = Math.cos((lat * Math.PI) / 180) ** 2; // east-west degrees are shorter away from the equator
    let best: Town | undefined;
    let bestDistance = Infinity;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const town of this.towns.get(`${x + dx},${y + dy}`) ?? []) {
          const d = (town.lon - lon) ** 2 * scale + (town.lat - lat) ** 2;
          if (d < bestDistance) [best, bestDistance] = [town, d];
        }
      }
    }
    return best;
  }
}
