import { EARTH_RADIUS_M, METRES_PER_DEGREE } from '../../src/common/earth';
import { RADIUS_MAX_M, RADIUS_MIN_M } from '../../src/search/dto/search-filters.dto';
import { QUERY_MAX_LENGTH } from '../../src/search/dto/search-request.dto';
import { COUNT_CAP } from '../../src/search/paging/search-limits';
import * as webEarth from '../../web/src/earth';
import * as webState from '../../web/src/search-state';

// The web page keeps its own copies of the API's bounds and of the earth it measures on (it cannot
// import the server's code): each equal to the server's, so one rule has one value.
describe("the web page's copies of the API's numbers", () => {
  it.each<[string, number, number]>([
    ['the query length', webState.QUERY_MAX_LENGTH, QUERY_MAX_LENGTH],
    ['the result window (page * limit)', webState.RESULT_WINDOW_MAX, COUNT_CAP],
    ['the smallest radius', webState.RADIUS_MIN_M, RADIUS_MIN_M],
    ['the largest radius', webState.RADIUS_MAX_M, RADIUS_MAX_M],
    ["the earth's radius", webEarth.EARTH_RADIUS_M, EARTH_RADIUS_M],
    ['metres per degree', webEarth.METRES_PER_DEGREE, METRES_PER_DEGREE],
  ])('%s', (_name, web, api) => {
    expect(web).toBe(api);
  });
});
