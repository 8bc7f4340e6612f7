// The earth as the API measures it (src/common/earth.ts; the page cannot import the server's code, so
// test/unit/web-api-bounds.spec.ts holds the two equal): a sphere of the mean radius.
export const EARTH_RADIUS_M = 6_371_008.7714;
/** Metres in a degree of latitude on that sphere. */
export const METRES_PER_DEGREE = Math.round((EARTH_RADIUS_M * Math.PI) / 180);
