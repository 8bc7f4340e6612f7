import { namedFlavor } from '@protomaps/basemaps';

// The map's colours: streets, landuse, buildings and labels from @protomaps/basemaps' light flavour
// (a maintained MapLibre basemap), the sea, land and borders as the page's offline map had them, and
// the imagery (coverage) in the page's accent colours.
const light = namedFlavor('light');

export const COLORS = {
  water: '#cfe3f1',
  earth: '#f6f3ec',
  coast: '#a6c5da',
  border: '#b3a794',
  state: '#cdc3b4',
  halo: '#ffffff',
  countryLabel: '#6f6353',
  stateLabel: '#9a8f80',
  cityLabel: light.city_label,
  subplaceLabel: light.subplace_label,
  roadLabel: light.roads_label_minor,
  waterLabel: '#4a7fa8',
  park: light.park_a,
  wood: light.wood_a,
  grass: light.landcover?.grassland ?? '#d2efcf',
  farmland: light.landcover?.farmland ?? '#d8efd2',
  residential: '#efece4',
  industrial: light.industrial,
  commercial: light.school,
  cemetery: light.park_a,
  buildings: '#e0dcd3',
  buildingLine: '#d3cec3',
  casing: '#dcd6c9',
  highway: light.highway,
  major: light.major,
  minor: light.minor_b,
  service: light.minor_service,
  path: '#b9ad9b',
  coverage: '#1d4ed8',
  coverageDense: '#172554',
  coverageInteractive: '#0f766e',
};
