import {
  activeFilterCount,
  displayImageUrl,
  formatDistance,
  hasSearch,
  headingOf,
  lastReachablePage,
  radiusToReach,
  regionCodeOf,
  requestBody,
  RESULT_INCLUDES,
  SearchState,
  stateFromUrl,
  stateToUrl,
  withQuery,
} from '../../web/src/search-state';

// The web page's search <-> URL <-> request rules (web/src/search-state.ts).
describe('web page search state', () => {
  const full: SearchState = {
    query: 'Herrengasse 35',
    page: 3,
    filters: {
      capturedAfter: '2015-01-01',
      capturedBefore: '2019-12-31',
      interactive: false,
      facing: 'NW',
      near: { lat: 47.14123456, lon: 9.52098765, radiusM: 5000 },
      region: 'US-CA',
    },
  };

  it('writes every part of a search into the URL with the API field names, and reads it back', () => {
    const url = stateToUrl(full);
    expect(Object.fromEntries(new URLSearchParams(url))).toEqual({
      query: 'Herrengasse 35',
      captured_after: '2015-01-01',
      captured_before: '2019-12-31',
      interactive: 'false',
      facing: 'NW',
      near: '47.14123,9.52099',
      radius_m: '5000',
      region: 'US-CA',
      page: '3',
    });
    expect(stateFromUrl(url)).toEqual({
      ...full,
      filters: { ...full.filters, near: { lat: 47.14123, lon: 9.52099, radiusM: 5000 } },
    });
  });

  it('leaves defaults out of the URL', () => {
    expect(stateToUrl({ query: 'Vaduz', page: 1, filters: {} })).toBe('?query=Vaduz');
    expect(stateToUrl({ query: '', page: 1, filters: {} })).toBe('');
  });

  it('drops what a hand-edited URL gets wrong and keeps the rest', () => {
    const state = stateFromUrl(
      '?query=%20Vaduz%20&page=-2&captured_after=2023-02-30&captured_before=2020-13-01&interactive=yes&facing=north&near=91,9&radius_m=10',
    );
    expect(state).toEqual({ query: 'Vaduz', page: 1, filters: {} });
    expect(stateFromUrl('?query=a&page=1.5').page).toBe(1);
    expect(stateFromUrl('?query=a&facing=se').filters.facing).toBe('SE');
    expect(stateFromUrl(`?query=${'x'.repeat(300)}`).query).toHaveLength(256);
  });

  it('reads a region code in the shape the API takes, upper case, and drops anything else', () => {
    expect(stateFromUrl('?query=a&region=li').filters.region).toBe('LI');
    expect(stateFromUrl('?query=a&region=us-ca').filters.region).toBe('US-CA');
    expect(stateFromUrl('?query=a&region=%20GB-ENG%20').filters.region).toBe('GB-ENG');
    for (const bad of ['', 'L', 'LIE', 'United States', 'US-', 'US-CALI', 'US_CA', '12']) {
      expect(stateFromUrl(`?query=a&region=${encodeURIComponent(bad)}`).filters.region).toBeUndefined();
      expect(regionCodeOf(bad)).toBeUndefined();
    }
    // "Any region" is no region at all: nothing in the URL, nothing in the request.
    expect(stateToUrl({ query: 'a', page: 1, filters: { region: undefined } })).toBe('?query=a');
    expect(requestBody({ query: 'a', page: 1, filters: {} })).not.toHaveProperty('region');
  });

  it('bounds the radius to what the API accepts and defaults it to 1 km', () => {
    expect(stateFromUrl('?near=1,2&radius_m=0').filters.near?.radiusM).toBe(1);
    expect(stateFromUrl('?near=1,2&radius_m=999999').filters.near?.radiusM).toBe(50_000);
    expect(stateFromUrl('?near=1,2').filters.near).toEqual({ lat: 1, lon: 2, radiusM: 1000 });
    expect(stateFromUrl('?near=-33.5,-70.25&radius_m=250').filters.near).toEqual({
      lat: -33.5,
      lon: -70.25,
      radiusM: 250,
    });
    expect(stateFromUrl('?near=1,181').filters.near).toBeUndefined();
  });

  it('never asks past the 10,000-result window', () => {
    expect(lastReachablePage(3)).toBe(3);
    expect(lastReachablePage(6688)).toBe(1000);
    expect(lastReachablePage(6688, 100)).toBe(100);
    expect(stateFromUrl('?query=a&page=5000').page).toBe(1000);
  });

  it('sends only the fields in use, in the API names', () => {
    expect(requestBody({ query: 'Vaduz', page: 1, filters: {} })).toEqual({ query: 'Vaduz', limit: 10, page: 1 });
    expect(requestBody({ query: 'Vaduz', page: 2, filters: {} }, 5)).toEqual({ query: 'Vaduz', limit: 5, page: 2 });
    expect(requestBody(full)).toEqual({
      query: 'Herrengasse 35',
      limit: 10,
      page: 3,
      captured_after: '2015-01-01',
      captured_before: '2019-12-31',
      interactive: false,
      facing: 'NW',
      near: { lat: 47.14123, lon: 9.52099, radius_m: 5000 },
      region: 'US-CA',
    });
    // Results ask for the place each belongs to; suggestions need only addresses.
    expect(requestBody({ query: 'Vaduz', page: 1, filters: {} }, 10, RESULT_INCLUDES)).toEqual({
      query: 'Vaduz',
      limit: 10,
      page: 1,
      include: ['place', 'interpretation', 'match'],
    });
    // A search by area alone has no query field at all (never an empty string).
    expect(requestBody({ query: '', page: 1, filters: { near: { lat: 1, lon: 2, radiusM: 250 } } })).toEqual({
      limit: 10,
      page: 1,
      near: { lat: 1, lon: 2, radius_m: 250 },
    });
  });

  it('carries a radius for typed coordinates as radius_m without near, and sends it as near: { radius_m }', () => {
    const widened: SearchState = { query: '34.07, -118.40', page: 1, filters: { queryRadiusM: 410 } };
    expect(stateToUrl(widened)).toBe('?query=34.07%2C+-118.40&radius_m=410');
    expect(stateFromUrl(stateToUrl(widened))).toEqual(widened);
    expect(requestBody(widened)).toEqual({ query: '34.07, -118.40', limit: 10, page: 1, near: { radius_m: 410 } });
    // With a near point, radius_m is near's; a broken near drops both.
    expect(stateFromUrl('?query=a&near=1,2&radius_m=300').filters).toEqual({ near: { lat: 1, lon: 2, radiusM: 300 } });
    expect(stateFromUrl('?query=a&near=x&radius_m=300').filters).toEqual({});
    expect(stateFromUrl('?query=a&radius_m=90000').filters).toEqual({ queryRadiusM: 50_000 });
    expect(stateFromUrl('?query=a&radius_m=').filters).toEqual({});
    // Another query drops it; the same query keeps it. It is not a filter the panel counts.
    expect(withQuery(widened, 'Vaduz')).toEqual({ query: 'Vaduz', page: 1, filters: {} });
    expect(withQuery({ ...widened, page: 3 }, '34.07, -118.40')).toEqual(widened);
    expect(activeFilterCount(widened.filters)).toBe(0);
  });

  it('offers the radius that takes in the nearest imagery, within the API bound, and says distances briefly', () => {
    expect(radiusToReach(401.99)).toBe(410);
    expect(radiusToReach(409)).toBe(410);
    expect(radiusToReach(0.2)).toBe(10);
    expect(radiusToReach(49_989)).toBe(49_990);
    expect(radiusToReach(49_995)).toBe(50_000);
    expect(radiusToReach(49_999.5)).toBeUndefined();
    expect([402.3, 999.6, 2_449, 120_000].map(formatDistance)).toEqual(['402 m', '1 km', '2.4 km', '120 km']);
  });

  it('knows when there is something to search for, and how many filters are on', () => {
    expect(hasSearch({ query: '', page: 1, filters: {} })).toBe(false);
    expect(hasSearch({ query: '', page: 1, filters: { facing: 'N' } })).toBe(false);
    expect(hasSearch({ query: '', page: 1, filters: { near: { lat: 0, lon: 0, radiusM: 1 } } })).toBe(true);
    expect(activeFilterCount(full.filters)).toBe(6);
    expect(activeFilterCount({ region: 'LI' })).toBe(1);
    expect(activeFilterCount({ interactive: false })).toBe(1);
    expect(activeFilterCount({})).toBe(0);
  });

  it('reads the heading of the 8-point compass text', () => {
    expect(headingOf('Facing North (N)')).toBe(0);
    expect(headingOf('Facing Southeast (SE)')).toBe(135);
    expect(headingOf('Facing West (W)')).toBe(270);
    expect(headingOf('Facing Northwest (NW)')).toBe(315);
    expect(headingOf('Facing nowhere')).toBeNull();
    expect(headingOf('(X)')).toBeNull();
  });

  it('loads demo images from the page origin when IMAGE_BASE_URL is the localhost default; keeps other URLs', () => {
    const id = 'a0000000-0000-4000-8000-000000000035';
    expect(displayImageUrl(`http://localhost:3000/demo-images/${id}.svg`, 'http://demo.example:3000')).toBe(
      `http://demo.example:3000/demo-images/${id}.svg`,
    );
    expect(displayImageUrl(`http://127.0.0.1:3000/demo-images/${id}.svg`, 'http://localhost:3000')).toBe(
      `http://localhost:3000/demo-images/${id}.svg`,
    );
    expect(displayImageUrl(`http://localhost:3000/demo-images/${id}.svg`, 'http://localhost:3000')).toBe(
      `http://localhost:3000/demo-images/${id}.svg`,
    );
    expect(displayImageUrl('https://img.example.com/a.jpg', 'http://demo.example:3000')).toBe(
      'https://img.example.com/a.jpg',
    );
    expect(displayImageUrl('http://localhost:9000/photos/a.jpg', 'http://demo.example:3000')).toBe(
      'http://localhost:9000/photos/a.jpg',
    );
    expect(displayImageUrl(`http://localhost:3000/images/${id}/sd.jpg`, 'http://demo.example:3000')).toBe(
      `http://demo.example:3000/images/${id}/sd.jpg`,
    );
  });
});
