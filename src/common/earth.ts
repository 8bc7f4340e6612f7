// The sphere distances are measured on: PostGIS's for geography with use_spheroid = false and the
// `<->` operator (the WGS84 mean radius), and so the search's radii and boxes.
export const EARTH_RADIUS_M = 6_371_008.7714;
// Metres in a degree of latitude (or of longitude at the equator) on that sphere, to the metre:
// 111,195. On the WGS84 spheroid a degree of latitude is 110,574 m at the equator to 111,694 m at the
// poles; a box that must hold a circle measured on the spheroid allows for that (see
// imagery-place-link.repository.ts).
export const METRES_PER_DEGREE = Math.round((EARTH_RADIUS_M * Math.PI) / 180);
