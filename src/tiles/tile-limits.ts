// The bounds of a tile (docs/map-tiles.md). Every layer of a tile reads at most its cap of rows, so a
// tile over a dense area costs a bounded amount of work; past a cap the layer shows the rows read first
// (in the index's order), which a dense area has plenty of.

/** Zooms served: 0..20. */
export const MAX_ZOOM = 20;
/** Tile coordinates (4096 units a side) and the buffer drawn beyond each edge (labels and lines cut cleanly). */
export const TILE_EXTENT = 4096;
export const TILE_BUFFER = 64;
/** From this zoom the coverage layer has one point per image; below it, one per grid cell with a count. */
export const COVERAGE_DETAIL_ZOOM = 15;
/** Aggregated coverage: cells per tile side (lis_refresh_coverage builds cells of 1/64 of a tile). */
export const COVERAGE_CELLS_PER_SIDE = 64;
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
  // 64 x 64 cells, plus the buffer's: a cap no real tile reaches.
  coverageCells: 5_000,
  coverageImages: 5_000,
} as const;
