import { Bounds, circleBounds } from '../../src/search/sql/circle-bounds';
import { areaSql } from '../../src/search/sql/area-search.sql';
import { CELL_READS_PER_COUNTED, CELLS_PER_DEGREE, walkedBox, walksCells } from '../../src/search/sql/cell-walk.sql';
import { searchPlan } from '../helpers/query-plans';

// Which bbox and circle searches are read cell by cell (see cellWalkSql): up to a few hundred cells
// for the first page, fewer for deeper ones, newest or oldest first.
describe('walksCells', () => {
  const page1 = { limit: 10, offset: 0 };
  // A box of `nx` x `ny` cells, its edges inside the cells.
  const box = (nx: number, ny: number): [number, number, number, number] => {
    const d = 1 / CELLS_PER_DEGREE;
    return [9.5 + d / 4, 47.1 + d / 4, 9.5 + (nx - 1) * d + d / 2, 47.1 + (ny - 1) * d + d / 2];
  };

  it('walks a box of a few cells newest or oldest first', () => {
    expect(walksCells(searchPlan({ bbox: box(3, 3), sort: 'newest' }), page1)).toBe(true);
    expect(walksCells(searchPlan({ bbox: box(3, 3), sort: 'oldest' }), page1)).toBe(true);
    expect(walksCells(searchPlan({ bbox: box(8, 8), sort: 'newest' }), page1)).toBe(true);
    expect(walksCells(searchPlan({ bbox: box(25, 25), sort: 'oldest' }), page1)).toBe(true);
  });

  // Citus cannot push down the walk's LATERAL read per cell with a LIMIT (docs/scaling.md#citus).
  it('keeps the sort where imagery is distributed', () => {
    const plan = searchPlan({ bbox: box(3, 3), sort: 'newest' });
    expect(areaSql(page1, plan).text).toContain('generate_series');
    expect(areaSql(page1, plan, true).text).not.toContain('generate_series');
  });

  it('keeps the sort for wide boxes, boxes across the antimeridian and nearest first', () => {
    // Page 1 admits 10 x CELL_READS_PER_COUNTED cells (its cap is 10 pages).
    expect(25 * 25).toBeLessThanOrEqual(10 * CELL_READS_PER_COUNTED);
    expect(26 * 25).toBeGreaterThan(10 * CELL_READS_PER_COUNTED);
    expect(walksCells(searchPlan({ bbox: box(26, 25), sort: 'newest' }), page1)).toBe(false);
    expect(walksCells(searchPlan({ bbox: [179.999, 10, -179.999, 10.001], sort: 'newest' }), page1)).toBe(false);
    const near = { lat: 47.1, lon: 9.5, radius_m: 100 };
    expect(walksCells(searchPlan({ bbox: box(2, 2), near, sort: 'distance' }), page1)).toBe(false);
  });

  // A circle covers the cells of its bounding box (circleBounds); with a bbox, of both boxes' overlap.
  const cellsOf = (b: Bounds) =>
    (Math.floor(b.east * CELLS_PER_DEGREE) - Math.floor(b.west * CELLS_PER_DEGREE) + 1) *
    (Math.floor(b.north * CELLS_PER_DEGREE) - Math.floor(b.south * CELLS_PER_DEGREE) + 1);
  const point = '47.1391, 9.5209';

  it("walks a point's circle newest or oldest first, up to a few kilometres for page 1", () => {
    for (const sort of ['newest', 'oldest'] as const) {
      expect(walksCells(searchPlan({ query: point, sort }), page1)).toBe(true); // 250 m, the default
      expect(walksCells(searchPlan({ near: { lat: 47.1391, lon: 9.5209, radius_m: 250 }, sort }), page1)).toBe(true);
      expect(
        walksCells(searchPlan({ looking_at: { lat: 47.1391, lon: 9.5209, radius_m: 250, fov_deg: 360 }, sort }), page1),
      ).toBe(true);
      expect(walksCells(searchPlan({ query: point, sort, interactive: true, facing: 'N' }), page1)).toBe(true);
    }
    const plan = searchPlan({ query: point, sort: 'newest' });
    const bounds = walkedBox(plan.filters)!;
    expect(bounds).toEqual(circleBounds(plan.filters.circles[0], 250));
    expect(cellsOf(bounds)).toBeGreaterThanOrEqual(12);
    expect(cellsOf(bounds)).toBeLessThanOrEqual(20);
    // A 1 km circle (over a hundred cells) and a 2 km one (over 500): their first page walked.
    for (const radius_m of [1000, 2000]) {
      const wide = searchPlan({ query: point, near: { radius_m }, sort: 'newest' });
      expect(cellsOf(walkedBox(wide.filters)!)).toBeGreaterThan(radius_m === 1000 ? 100 : 500);
      expect(walksCells(wide, page1)).toBe(true);
      expect(walksCells({ ...wide, sort: 'oldest' }, page1)).toBe(true);
    }
  });

  it('keeps the sort for a circle of many cells, nearest first, across the antimeridian or at a pole', () => {
    const wide = searchPlan({ query: point, near: { radius_m: 3000 }, sort: 'newest' });
    expect(cellsOf(walkedBox(wide.filters)!)).toBeGreaterThan(10 * CELL_READS_PER_COUNTED);
    expect(walksCells(wide, page1)).toBe(false);
    expect(walksCells(searchPlan({ query: point, sort: 'distance' }), page1)).toBe(false);
    expect(walksCells(searchPlan({ query: '10, 179.9999', sort: 'newest' }), page1)).toBe(false);
    expect(walksCells(searchPlan({ query: '89.999, 10', sort: 'newest' }), page1)).toBe(false);
  });

  it('walks a circle and a bbox over the cells of their overlap, and not when they do not meet', () => {
    const near = { lat: 47.1 + 0.5 / CELLS_PER_DEGREE, lon: 9.5 + 0.5 / CELLS_PER_DEGREE, radius_m: 2000 };
    const both = searchPlan({ bbox: box(2, 2), near, sort: 'newest' });
    expect(walksCells(both, page1)).toBe(true);
    expect(cellsOf(walkedBox(both.filters)!)).toBe(4);
    expect(walkedBox(searchPlan({ bbox: [10, 47, 10.001, 47.001], near, sort: 'newest' }).filters)).toBeNull();
  });

  it('keeps the sort for a deep page of many cells, whose walk could read several times the box', () => {
    const deep = { limit: 10, offset: 490 };
    expect(walksCells(searchPlan({ bbox: box(3, 3), sort: 'newest' }), deep)).toBe(true);
    expect(walksCells(searchPlan({ bbox: box(9, 8), sort: 'newest' }), deep)).toBe(true);
    expect(walksCells(searchPlan({ bbox: box(9, 9), sort: 'newest' }), deep)).toBe(false);
    // A 100 m circle covers 2 to 6 cells, a 250 m one 12 to 20, a 1 km one 126 to 150.
    expect(walksCells(searchPlan({ query: point, near: { radius_m: 100 }, sort: 'oldest' }), deep)).toBe(true);
    expect(walksCells(searchPlan({ query: point, sort: 'oldest' }), deep)).toBe(true);
    // A 1 km circle: walked to page 5, sorted from page 10.
    const km = searchPlan({ query: point, near: { radius_m: 1000 }, sort: 'oldest' });
    expect(walksCells(km, { limit: 10, offset: 40 })).toBe(true);
    expect(walksCells(km, { limit: 10, offset: 90 })).toBe(false);
    expect(walksCells(km, deep)).toBe(false);
    // A 2 km circle: page 1 only.
    const twoKm = searchPlan({ query: point, near: { radius_m: 2000 }, sort: 'oldest' });
    expect(walksCells(twoKm, { limit: 10, offset: 10 })).toBe(false);
  });
});
