// The places a place lies in below its country, by kind, as OpenStreetMap's place=* nodes and areas
// give them (docs/places.md, "Where a place lies"): `{"hamlet": "Silum", "village": "Steg"}`.
export const HIERARCHY_PARTS = ['neighbourhood', 'quarter', 'hamlet', 'suburb', 'village', 'district', 'city'] as const;
export type HierarchyPart = (typeof HIERARCHY_PARTS)[number];
export type PlaceHierarchy = Partial<Record<HierarchyPart, string>>;

// The part each place=* value fills.
export const HIERARCHY_PART_OF: Readonly<Record<string, HierarchyPart>> = {
  neighbourhood: 'neighbourhood',
  quarter: 'quarter',
  hamlet: 'hamlet',
  isolated_dwelling: 'hamlet',
  suburb: 'suburb',
  village: 'village',
  city_district: 'district',
  district: 'district',
  borough: 'district',
  town: 'city',
  city: 'city',
};

// How far a place=* node without an area reaches, in metres: half of Nominatim's reverse_place_diameter
// (lib-sql/functions/ranking.sql) for the search rank Nominatim gives the kind (city 16: 0.16 degrees;
// town, borough, city district 18: 0.08; village, suburb 19: 0.04; hamlet, quarter, neighbourhood,
// isolated dwelling 20 and above: 0.02), a degree of latitude taken as 111,320 m.
const DEGREE_M = 111_320;
export const HIERARCHY_REACH_M: Readonly<Record<string, number>> = {
  city: 0.08 * DEGREE_M,
  town: 0.04 * DEGREE_M,
  borough: 0.04 * DEGREE_M,
  city_district: 0.04 * DEGREE_M,
  district: 0.04 * DEGREE_M,
  village: 0.02 * DEGREE_M,
  suburb: 0.02 * DEGREE_M,
  hamlet: 0.01 * DEGREE_M,
  quarter: 0.01 * DEGREE_M,
  neighbourhood: 0.01 * DEGREE_M,
  isolated_dwelling: 0.01 * DEGREE_M,
};

// The parts a label names between the street and the town, finest first: those below the city that
// are not already the street, the locality or the municipality.
export function hierarchyLabelParts(
  hierarchy: PlaceHierarchy | null | undefined,
  known: ReadonlyArray<string | null | undefined>,
): string[] {
  if (!hierarchy) return [];
  const seen = new Set(known.filter((k): k is string => !!k).map((k) => k.toLowerCase()));
  const out: string[] = [];
  for (const part of HIERARCHY_PARTS) {
    const name = hierarchy[part];
    if (part === 'city' || !name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    out.push(name);
  }
  return out;
}

// A hierarchy read from an input: an object of non-blank names by part; anything else is left out.
export function hierarchyOf(raw: unknown, maxLength: number): PlaceHierarchy | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const out: PlaceHierarchy = {};
  for (const part of HIERARCHY_PARTS) {
    const v = (raw as Record<string, unknown>)[part];
    if (typeof v === 'string' && v.trim() !== '' && v.length <= maxLength) out[part] = v.trim();
  }
  return Object.keys(out).length > 0 ? out : null;
}
