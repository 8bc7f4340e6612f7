import { COUNT_CAP, PageWindow } from '../paging/search-limits';
import { counted, matchTotal } from '../paging/match-total';
import type { SearchPage, SearchRow } from '../search.repository';
import type { RankedPlace } from './place-ranking';

// The answer of a category search (sql/category-search.sql.ts): a page of imagery, each record with
// the poi it was found at, and those pois in the order of the page.
export interface CategoryImagery {
  page: SearchPage;
  /** The pois of the page's records, nearest (or most important) first. */
  pois: RankedPlace[];
}

export type CategoryRow = { total: number; poi_rank: number | null } & Partial<SearchRow> & {
    poiId: string | null;
    poiKind: string;
    poiName: string;
    poiLabel: string;
    poiAltNames: string;
    poiImportance: number;
    poiLon: number;
    poiLat: number;
  };

// The statement counts every record it reads (CATEGORY_POIS x CATEGORY_RECORDS_PER_POI at most): an
// exact count, reported by the one rule for a page's total (matchTotal).
export function categoryPage(rows: CategoryRow[], window: PageWindow): CategoryImagery {
  const total = rows[0]?.total ?? 0;
  const pois = new Map<string, RankedPlace>();
  const records: SearchRow[] = [];
  for (const row of rows) {
    if (!row.id || !row.poiId) continue;
    const { total: _t, poi_rank: rank, poiId, poiKind, poiName, poiLabel, poiAltNames, ...record } = row;
    const { poiImportance, poiLon, poiLat, ...rest } = record;
    if (!pois.has(poiId)) {
      pois.set(poiId, {
        id: poiId,
        kind: poiKind,
        name: poiName,
        label: poiLabel,
        altNames: poiAltNames,
        importance: poiImportance,
        lon: poiLon,
        lat: poiLat,
        similarity: null,
        rank: -(rank ?? 0),
      });
    }
    records.push({ ...(rest as SearchRow), nearPlaceId: poiId });
  }
  const page = { ...matchTotal(window, COUNT_CAP, counted(total)), codeMatched: false, rows: records };
  return { page, pois: [...pois.values()] };
}
