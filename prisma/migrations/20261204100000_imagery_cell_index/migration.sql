-- Each grid cell's imagery in date order: (cell x, cell y, captured_at, id), the cell being
-- (floor(lon * 500), floor(lat * 500)), 1/500 degree a side. A bbox search newest or oldest first
-- over a box holding more records than it counts reads the first records of each cell the box
-- covers from it, instead of every record in the box (src/search/sql/cell-walk.sql.ts).
CREATE INDEX "imagery_cell_captured_at_idx" ON "imagery"
  ((floor(ST_X("location") * 500)::int), (floor(ST_Y("location") * 500)::int), "captured_at", "id");
