import { CELLS_PER_DEGREE, walksCells } from '../../src/search/sql/cell-walk.sql';
import { searchPlan } from '../helpers/query-plans';

// Which bbox searches are read cell by cell (see cellWalkSql): a few cells, newest or oldest first.
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
  });

  it('keeps the sort for wide boxes, boxes across the antimeridian, circles and nearest first', () => {
    expect(walksCells(searchPlan({ bbox: box(9, 8), sort: 'newest' }), page1)).toBe(false);
    expect(walksCells(searchPlan({ bbox: [179.999, 10, -179.999, 10.001], sort: 'newest' }), page1)).toBe(false);
    const near = { lat: 47.1, lon: 9.5, radius_m: 100 };
    expect(walksCells(searchPlan({ bbox: box(2, 2), near, sort: 'newest' }), page1)).toBe(false);
    expect(walksCells(searchPlan({ bbox: box(2, 2), near, sort: 'distance' }), page1)).toBe(false);
  });

  it('keeps the sort for a deep page of many cells, whose walk could read several times the box', () => {
    const deep = { limit: 10, offset: 490 };
    expect(walksCells(searchPlan({ bbox: box(3, 3), sort: 'newest' }), deep)).toBe(true);
    expect(walksCells(searchPlan({ bbox: box(4, 3), sort: 'newest' }), deep)).toBe(false);
  });
});
