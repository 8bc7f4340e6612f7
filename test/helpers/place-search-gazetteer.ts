import { destination } from '../relevance/relevance-catalogue';
import { KeyedTestPlace } from './places';

// A small gazetteer for search that knows places (test/medium/place-search.spec.ts): same-named towns around
// the world, and one address in Vaduz with records that face it and records around it.
export const LOCALITIES: KeyedTestPlace[] = [
  {
    key: 'london-gb',
    kind: 'locality',
    name: 'London',
    label: 'London, England, United Kingdom',
    lon: -0.1276,
    lat: 51.5072,
    importance: 0.92,
    regionCode: 'GB-ENG',
    countryCode: 'GB',
    altNames: 'ENG | UK | GB | GBR',
  },
  {
    key: 'london-ca',
    kind: 'locality',
    name: 'London',
    label: 'London, Ontario, Canada',
    lon: -81.2453,
    lat: 42.9849,
    importance: 0.75,
    regionCode: 'CA-ON',
    countryCode: 'CA',
    altNames: 'ON | CA | CAN',
  },
  {
    key: 'croydon',
    kind: 'locality',
    name: 'Croydon',
    label: 'Croydon, England, United Kingdom',
    lon: -0.0982,
    lat: 51.3762,
    importance: 0.7,
    regionCode: 'GB-ENG',
    countryCode: 'GB',
    altNames: 'London Borough of Croydon | ENG | UK',
  },
  {
    key: 'new-london',
    kind: 'locality',
    name: 'New London',
    label: 'New London, CT, United States',
    lon: -72.0995,
    lat: 41.3557,
    importance: 0.6,
    regionCode: 'US-CT',
    countryCode: 'US',
    altNames: 'Connecticut | US | USA',
  },
  {
    key: 'sf-us',
    kind: 'locality',
    name: 'San Francisco',
    label: 'San Francisco, CA, United States',
    lon: -122.4194,
    lat: 37.7749,
    importance: 0.79,
    regionCode: 'US-CA',
    countryCode: 'US',
    altNames: 'California | US | USA',
  },
  {
    key: 'sf-sv',
    kind: 'locality',
    name: 'San Francisco',
    label: 'San Francisco, Morazán, El Salvador',
    lon: -88.1,
    lat: 13.7,
    importance: 0.5,
    regionCode: 'SV-MO',
    countryCode: 'SV',
  },
  {
    key: 'sf-ar',
    kind: 'locality',
    name: 'San Francisco',
    label: 'San Francisco, Córdoba, Argentina',
    lon: -62.08,
    lat: -31.43,
    importance: 0.65,
    regionCode: 'AR-X',
    countryCode: 'AR',
  },
  {
    key: 'springfield-il',
    kind: 'locality',
    name: 'Springfield',
    label: 'Springfield, IL, United States',
    lon: -89.65,
    lat: 39.8,
    importance: 0.67,
    regionCode: 'US-IL',
    countryCode: 'US',
    altNames: 'Illinois | US | USA',
  },
  {
    key: 'springfield-mo',
    kind: 'locality',
    name: 'Springfield',
    label: 'Springfield, MO, United States',
    lon: -93.29,
    lat: 37.21,
    importance: 0.69,
    regionCode: 'US-MO',
    countryCode: 'US',
    altNames: 'Missouri | US | USA',
  },
  {
    key: 'springfield-ma',
    kind: 'locality',
    name: 'Springfield',
    label: 'Springfield, MA, United States',
    lon: -72.59,
    lat: 42.1,
    importance: 0.68,
    regionCode: 'US-MA',
    countryCode: 'US',
    altNames: 'Massachusetts | US | USA',
  },
  {
    key: 'washington-dc',
    kind: 'locality',
    name: 'Washington, D.C.',
    label: 'Washington, DC 20001, United States',
    lon: -77.0369,
    lat: 38.9072,
    importance: 0.77,
    regionCode: 'US-DC',
    countryCode: 'US',
    altNames: 'District of Columbia | Washington | DC | US | USA',
  },
  {
    key: 'munich',
    kind: 'locality',
    name: 'Munich',
    label: 'Munich, Bavaria, Germany',
    lon: 11.575,
    lat: 48.137,
    importance: 0.8,
    regionCode: 'DE-BY',
    countryCode: 'DE',
    altNames: 'München | Muenchen | Bayern | BY | Deutschland | DE | DEU',
  },
  {
    key: 'vaduz',
    kind: 'locality',
    name: 'Vaduz',
    label: 'Vaduz, Liechtenstein',
    lon: 9.5209,
    lat: 47.141,
    importance: 0.5,
    countryCode: 'LI',
    altNames: 'LI | LIE',
  },
];
export const ADDRESS: KeyedTestPlace = {
  key: 'herrengasse-35',
  kind: 'address',
  name: 'Herrengasse 35',
  label: 'Herrengasse 35, 9490 Vaduz',
  lon: 9.5215,
  lat: 47.1395,
  importance: 0.1,
  countryCode: 'LI',
};

// Records at the address (their address recovered from it) and around it.
const at = (bearing: number, metres: number) => destination(ADDRESS, bearing, metres);
export const VIEWS = {
  // Beside the address (under AT_POINT_M), looking away: it stands there, so it shows it.
  beside: { where: at(0, 3), heading: 0, date: '2015-05-01', interactive: false, own: true },
  // Given the address as its nearest, facing it and newest, but down the street: after nearer ones.
  downTheStreet: { where: at(0, 40), heading: 180, date: '2025-05-01', interactive: false, own: true },
  facing: { where: at(180, 10), heading: 0, date: '2018-05-01', interactive: false, own: true },
  away: { where: at(180, 10), heading: 180, date: '2024-05-01', interactive: false, own: true },
  panorama: { where: at(270, 10), heading: 200, date: '2016-05-01', interactive: true, own: true },
  neighbourFacing: { where: at(90, 30), heading: 270, date: '2020-05-01', interactive: false, own: false },
  neighbourAway: { where: at(90, 30), heading: 90, date: '2020-05-01', interactive: false, own: false },
};

// A POI with no address of its own among the records: the records nearest it that show it are its.
export const POI: KeyedTestPlace = {
  key: 'postmuseum',
  kind: 'poi',
  name: 'Postmuseum',
  label: 'Postmuseum, Städtle 37, 9490 Vaduz',
  lon: 9.5227,
  lat: 47.139,
  importance: 0.1,
  countryCode: 'LI',
};
// Another of that name, more important, with no imagery near it: the first's records still come.
export const POI_ELSEWHERE: KeyedTestPlace = {
  ...POI,
  key: 'postmuseum-elsewhere',
  label: 'Postmuseum, Bern',
  lon: 7.44,
  lat: 46.95,
  importance: 0.3,
  countryCode: 'CH',
};
const nearPoi = (bearing: number, metres: number) => destination(POI, bearing, metres);
export const POI_VIEWS = {
  poiBeside: { where: nearPoi(90, 4), heading: 90, address: 'Städtle 35, 9490 Vaduz' },
  poiFacing: { where: nearPoi(180, 30), heading: 0, address: 'Städtle 36, 9490 Vaduz' },
  poiAway: { where: nearPoi(180, 30), heading: 180, address: 'Städtle 36, 9490 Vaduz' },
  poiFar: { where: nearPoi(0, 80), heading: 180, address: 'Städtle 40, 9490 Vaduz' },
};

// A town whose records lie at its centre and far out: the one at its centre is its imagery first,
// though the far one's address is the town's name alone (the best text match).
export const TOWN: KeyedTestPlace = {
  key: 'balzers',
  kind: 'locality',
  name: 'Balzers',
  label: 'Balzers, Liechtenstein',
  lon: 9.5,
  lat: 47.066,
  importance: 0.2,
  countryCode: 'LI',
};
const nearTown = (bearing: number, metres: number) => destination(TOWN, bearing, metres);
export const TOWN_RECORDS = {
  townCentre: { where: nearTown(45, 60), address: 'Fürstenstrasse 12, 9496 Balzers' },
  townOutskirts: { where: nearTown(200, 3000), address: 'Balzers, Liechtenstein' },
};
// A record at the town's point that is no record of the town: its address, and its link, came from a
// street of the next village. It shows the centre best all the same.
export const TOWN_CENTRE_VIEW = { where: nearTown(300, 4), address: 'Dorfstrasse 3, 9498 Planken' };

// A locality with no imagery, named like a shop that has some: the shop's records are the answer
// (the best place is the locality, the shop's view comes second).
export const NAMESAKE_LOCALITY: KeyedTestPlace = {
  key: 'fatale-locality',
  kind: 'locality',
  name: 'Fatale',
  label: 'Fatale, Liechtenstein',
  lon: 10.5,
  lat: 47.6, // farther than a locality's surroundings from the shop
  importance: 0.3,
  countryCode: 'LI',
};
export const NAMESAKE_SHOP: KeyedTestPlace = {
  key: 'fatale-shop',
  kind: 'poi',
  name: 'Fatale',
  label: 'Fatale, Städtle 28, 9490 Vaduz',
  lon: 9.53,
  lat: 47.145,
  importance: 0.05,
  countryCode: 'LI',
};
export const NAMESAKE_SHOP_RECORD = { where: destination(NAMESAKE_SHOP, 90, 4), address: 'Städtle 28, 9490 Vaduz' };

// A town whose name holds a symbol: to the query's words the `t` glued to `&` is noise, and what is
// left of "At&t", "at", is Austria's code, which the query does not name.
export const AMPERSAND_TOWN: KeyedTestPlace = {
  key: 'at-and-t',
  kind: 'locality',
  name: 'At&t',
  label: 'At&t, OK, United States',
  lon: -96.95,
  lat: 35.35,
  importance: 0.1,
  regionCode: 'US-OK',
  countryCode: 'US',
};
export const AMPERSAND_TOWN_RECORD = {
  where: destination(AMPERSAND_TOWN, 90, 40),
  address: '107 Wilson Road, At&t, OK 74801',
};

// A museum mapped as a building with an address: the OpenStreetMap import makes a poi and an address
// at one point, both with the museum's other name. The record at its door recovered the address (a
// lesser place of that name); a record across the street faces the museum.
export const MUSEUM: KeyedTestPlace = {
  key: 'landesmuseum',
  kind: 'poi',
  name: 'Landesmuseum',
  label: 'Landesmuseum, Städtle 43, 9490 Vaduz',
  altNames: 'National Museum',
  lon: 9.5155,
  lat: 47.1335,
  importance: 0.05,
  countryCode: 'LI',
};
export const MUSEUM_BUILDING: KeyedTestPlace = {
  ...MUSEUM,
  key: 'staedtle-43',
  kind: 'address',
  name: 'Städtle 43',
  label: 'Städtle 43, 9490 Vaduz',
  importance: 0.02,
};
export const MUSEUM_VIEWS = {
  museumDoor: { where: destination(MUSEUM, 90, 1), heading: 200, address: MUSEUM_BUILDING.label },
  museumAcross: { where: destination(MUSEUM, 90, 40), heading: 270, address: 'Städtle 44, 9490 Vaduz' },
};
