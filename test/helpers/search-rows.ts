import type { SearchRow } from '../../src/search/search.repository';

// A search result row as the repository returns it (a Vaduz address), with the fields a test cares about.
export const searchRow = (over: Partial<SearchRow> = {}): SearchRow => ({
  id: '0f5ca291-e477-55f8-b961-57871f26c005',
  address: 'Herrengasse 35, 9490 Vaduz',
  capturedAt: '2015-09-10',
  heading: 273.1,
  interactive: true,
  imageUrl: '/img/1.jpg',
  lon: 9.5209,
  lat: 47.1391,
  score: 1,
  distance: null,
  placeId: null,
  localityId: null,
  ...over,
});
