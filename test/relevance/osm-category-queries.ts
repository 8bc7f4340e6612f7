import { buildCategoryTerms } from '../gazetteer/category-terms';
import { grouped, OsmQuery, recordId } from './osm-queries';
import { inTown, OsmObject, OsmTruth } from './osm-truth';

// Categories strictly by tag: "<category> in <town>" where the category is the English name the iD
// editor's presets give a poi's tag (@openstreetmap/id-tagging-schema, read here from the package,
// not from src/) and the town the municipality the poi lies in. Every record the query answers must
// stand at an object carrying a tag of that name (any of the tags the presets call so: a cafe beside a
// restaurant is no restaurant, nor is the house next door), or on a street only; the first one at such
// an object inside the town.

const KEYS = ['amenity', 'shop', 'tourism'] as const;
const normal = (s: string) => s.toLowerCase().trim();

export function categoryByTagQueries(truth: OsmTruth, limit: number): OsmQuery[] {
  const tagsByName = new Map<string, Set<string>>();
  // A name that lists alternatives ("Preschool / Kindergarten Grounds", "Arts & Crafts Store") is
  // typed as one of them, not as written: such names are left out.
  for (const { tag, en } of buildCategoryTerms().categories.filter((c) => !/[/&()]/u.test(c.en.name)))
    tagsByName.set(normal(en.name), new Set([...(tagsByName.get(normal(en.name)) ?? []), tag]));
  const nameOfTag = new Map([...tagsByName].flatMap(([name, tags]) => [...tags].map((t) => [t, name] as const)));
  const tagsOf = (o: OsmObject) =>
    KEYS.flatMap((k) => (o.tags[k] ?? '').split(';').map((v) => `${k}=${v.trim()}`)).filter((t) => nameOfTag.has(t));
  const carrying = new Map<string, OsmObject[]>();
  for (const o of truth.objects)
    for (const name of new Set(tagsOf(o).map((t) => nameOfTag.get(t)!)))
      carrying.set(name, [...(carrying.get(name) ?? []), o]);
  const towns = [...truth.municipalities.keys()].sort();
  const made = truth.pois.flatMap((o) => {
    const town = towns.find((t) => inTown(truth, o, t));
    const [tag] = tagsOf(o);
    return town && tag ? [{ query: `${nameOfTag.get(tag)} in ${town}`, from: o, name: nameOfTag.get(tag)!, town }] : [];
  });
  // Streets are where the imagery of a poi is taken from: a record on one is no other place's. Any
  // other object (an address, a building, a poi of another tag) at a record's point makes it that one's.
  const streetOnly = new Set(truth.objects.filter((o) => o.street).map(recordId));
  for (const o of truth.objects) if (!o.street) streetOnly.delete(recordId(o));
  const about = new Map(made.map((m) => [normal(m.query), m]));
  const ofObject = new Map(made.map((m) => [m.from, m]));
  return grouped('category by tag, town', made, limit, (o) => {
    const m = ofObject.get(o)!;
    return (carrying.get(m.name) ?? []).filter((p) => inTown(truth, p, m.town));
  }).map((q) => {
    const m = about.get(normal(q.query))!;
    return { ...q, onlyAmong: [...(carrying.get(m.name) ?? []).map(recordId), ...streetOnly] };
  });
}
