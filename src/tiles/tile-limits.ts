// The bounds of a tile (docs/map-tiles.md). Every layer of a tile reads at most its cap of rows, so a
// tile over a dense area costs a bounded amount of work; past a cap the layer shows the rows read first
// (in the index's order), which a dense area has plenty of.

/** Zooms served: 0..20. */
export const MAX_ZOOM = 20;
/** Tile coordinates (4096 units a side) and the buffer drawn beyond each edge (labels and lines cut cleanly). */
export const TILE_EXTENT = 4096;
export const TILE_BUFFER = 64;
/** From this zoom the coverage layer's points are images (id, heading, 360 flag, date); below it, grid cells with a count. */
export const COVERAGE_DETAIL_ZOOM = 15;
/**
 * From this zoom every image under the tile (up to its cap); at zooms COVERAGE_DETAIL_ZOOM to one below,
 * one image per grid cell (its newest), precomputed by lis_refresh_coverage: a dense city's tile
 * reads its cells, never every image under it (on a 512 px tile a cell is 8 px, a dot's size).
 */
export const COVERAGE_EVERY_IMAGE_ZOOM = 17;
/** Coverage cells per tile side (lis_refresh_coverage builds cells of 1/64 of a tile, zooms 0 to 16). */
export const COVERAGE_CELLS_PER_SIDE = 64;
/**
 * The zooms of the `sequences` layer (a line per sequence of photos): where the coverage's points stand
 * for a cell each, or are counted cells, and a street driven is better seen as the line it was taken
 * along. Below the first a sequence is a few pixels long; from COVERAGE_EVERY_IMAGE_ZOOM the images
 * themselves draw it.
 */
export const SEQUENCE_MIN_ZOOM = 12;
export const SEQUENCE_MAX_ZOOM = COVERAGE_EVERY_IMAGE_ZOOM - 1;
/** Below this zoom the map layers read their simplified copy (map_features.geom_low). */
export const LOW_ZOOM_BELOW = 12;

/** Rows read per layer per tile, at most. */
export const LAYER_ROW_CAPS = {
  streets: 10_000,
  paths: 10_000,
  water: 5_000,
  landuse: 5_000,
  buildings: 10_000,
  places: 2_000,
  // 64 x 64 cells, plus the buffer's (66 x 66 = 4,356): a cap no real tile reaches (zooms 0 to 16).
  coverageCells: 5_000,
  // From zoom 17: the images themselves.
  coverageImages: 5_000,
  // Lines of sequences, from SEQUENCE_MIN_ZOOM to SEQUENCE_MAX_ZOOM.
  sequences: 5_000,
} as const;
