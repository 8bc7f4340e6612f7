// When a camera faces a point: its heading within FACING_HALF_ANGLE_DEG of the bearing to it, half
// the field of view the service takes an image to have when it gives none (the default of
// looking_at's fov_deg). One rule for the search's ranking (a record shows a named address,
// src/search/sql/place-pins.sql.ts) and the web page's words for it ("facing it", web/src/place-text.ts,
// which imports this file: it has no imports of its own, so the page's bundle takes nothing else).
export const DEFAULT_FIELD_OF_VIEW_DEG = 90;
export const FACING_HALF_ANGLE_DEG = DEFAULT_FIELD_OF_VIEW_DEG / 2;
