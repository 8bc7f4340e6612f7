import { grouped, numberAStreetLacks, OsmQuery, peerIndex, streetATownLacks } from './osm-queries';
import { OsmObject, OsmTruth } from './osm-truth';

// The OpenStreetMap suite's structured queries and names beside coordinates, every part and every
// point read from the OSM tags (osm-truth.ts), as osm-queries.ts makes the text queries.

// Coordinates as people type them: rounded to what they read off a map, in the forms they write.
const COORDINATE_FORMS: ReadonlyArray<(o: OsmObject) => string> = [
  (o) => `N ${o.lat.toFixed(1)}° E ${o.lon.toFixed(1)}°`,
  (o) => `${o.lat.toFixed(2)},${o.lon.toFixed(2)}`,
  (o) => `${o.lat.toFixed(3)}, ${o.lon.toFixed(3)}`,
  (o) => `${o.lat.toFixed(2)}N ${o.lon.toFixed(2)}E`,
];
const SEPARATORS = [', ', ' '];

// A POI's or natural feature's name and its own point, rounded: the object's record is right, and so
// is any object of the same name (what the data cannot tell apart from it).
function nameNearCoordinates(truth: OsmTruth, perCategory: number): OsmQuery[] {
  const { sameName } = peerIndex(truth);
  const made = [...truth.pois, ...truth.naturals].map((o, i) => ({
    query: `${o.tags.name}${SEPARATORS[i % SEPARATORS.length]}${COORDINATE_FORMS[i % COORDINATE_FORMS.length](o)}`,
    from: o,
  }));
  return grouped('name + coordinates', made, perCategory, sameName);
}

// Every address with street and town, as the parts of a structured address; the same peers as
// "<street> <number>, <town>".
function numberStreetTown(truth: OsmTruth, perCategory: number): OsmQuery[] {
  const { sameAddress } = peerIndex(truth);
  const made = truth.addresses
    .filter((o) => o.address!.street && o.address!.city)
    .map((o) => ({ query: `${o.address!.street} ${o.address!.number}, ${o.address!.city}`, from: o }));
  const parts = new Map(made.map(({ query, from: { address: a } }) => [query, a!]));
  return grouped('structured: number street town', made, perCategory, sameAddress).map((q) => {
    const a = parts.get(q.query)!;
    return { ...q, address: { housenumber: a.number, street: a.street!, city: a.city! } };
  });
}

export function osmStructuredQueries(truth: OsmTruth, perCategory: number): OsmQuery[] {
  return [
    ...numberStreetTown(truth, perCategory),
    ...numberAStreetLacks(truth, Math.max(50, Math.min(perCategory, 100)), true),
    ...streetATownLacks(truth, Math.max(50, Math.min(perCategory, 50)), true),
    ...nameNearCoordinates(truth, perCategory),
  ];
}
