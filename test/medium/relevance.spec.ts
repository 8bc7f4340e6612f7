import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { resetImagery } from '../helpers/test-app';
import { resetPlaces } from '../helpers/places';
import { Category, REGION_CATEGORIES } from '../relevance/relevance-fixture';
import { accuracy, CategoryResult, formatMisses, formatTable, measureRelevance } from '../relevance/relevance-suite';

// The relevance suite (npm run relevance prints the same table) as a gate: the build fails when
// quality drops below the bars.
// The country and region categories have thousands of queries (npm run relevance asks them all); a
// seeded sample of each is asked here.
const REGION_QUERIES_PER_CATEGORY = 40;

describe('relevance suite', () => {
  let results: CategoryResult[];
  let report: string;
  let springfield: SearchResponseDto;

  beforeAll(async () => {
    const measured = await measureRelevance(REGION_QUERIES_PER_CATEGORY);
    results = measured.results;
    springfield = measured.springfield;
    const address = new Map(measured.fixture.records.map((r) => [r.id, r.address]));
    report = `${formatTable(results)}\n\n${formatMisses(results, (id) => (id === null ? 'nothing' : (address.get(id) ?? id)))}`;
  }, 600_000); // the catalogue, the world gazetteer built for the region categories, about 1,100 searches

  afterAll(async () => {
    await resetImagery();
    await resetPlaces();
  });

  const of = (category: Category) => results.find((r) => r.category === category)!;
  // Fails with the whole table and every miss, so a regression can be read from the test output.
  function expectAtLeast(category: Category, metric: 'top1' | 'top5', bar: number) {
    const r = of(category);
    const value = accuracy(r[metric], r.queries);
    if (value < bar)
      throw new Error(`${category} ${metric} is ${(value * 100).toFixed(1)}%, below ${bar * 100}%\n\n${report}`);
  }

  it('asks at least 150 queries, at least 20 in every category, and none fails with an error', () => {
    expect(results.reduce((n, r) => n + r.queries, 0)).toBeGreaterThanOrEqual(150);
    for (const r of results)
      expect({ category: r.category, enough: r.queries >= 20 }).toEqual({ category: r.category, enough: true });
    const errors = results.flatMap((r) => r.misses.filter((m) => m.error));
    expect(errors).toEqual([]);
  });

  it('finds exact addresses first (top-1 at least 98%)', () => expectAtLeast('exact', 'top1', 0.98));

  it('finds misspelt addresses among the first five (top-5 at least 90%)', () => expectAtLeast('typo', 'top5', 0.9));

  it('answers garbage with nothing, every time', () => expectAtLeast('garbage', 'top1', 1));

  it('world: puts the place a person means first for ambiguous names, typed or misspelt (top-1 at least 95%)', () =>
    expectAtLeast('world', 'top1', 0.95));

  it('qualified: the place of the country or state named, and nothing in a country without one (top-1 at least 95%)', () =>
    expectAtLeast('qualified', 'top1', 0.95));

  it('lists distinct Springfields, each naming its state', () => {
    const addresses = springfield.data.map((d) => d.address);
    expect(addresses.length).toBeGreaterThanOrEqual(5);
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const a of addresses) expect(a).toMatch(/^Springfield, (?:[A-Z]{2}|[A-Z][a-z]+(?: [A-Z][a-z]+)*)[ ,]/);
  });

  it('corrected: a misspelt town of 100,000+ first, its match corrected with its corrections (top-1 at least 97%)', () =>
    expectAtLeast('corrected', 'top1', 0.97));

  it.each<Category>([
    'variant_abbreviations',
    'variant_umlauts',
    'variant_initials',
    'variant_white_space',
    'variant_typo_each_word',
  ])('%s: a real town typed another way, top-1 at least 97%%', (category) => expectAtLeast(category, 'top1', 0.97));

  it.each<Category>([...REGION_CATEGORIES])('%s: top-1 at least 97%%', (category) =>
    expectAtLeast(category, 'top1', 0.97),
  );

  it.each<Category>([
    'prefix',
    'accents',
    'abbreviations',
    'house_numbers',
    'word_order',
    'coordinates',
    'plus_codes',
    'location_codes',
  ])('%s: top-1 at least 95%%', (category) => expectAtLeast(category, 'top1', 0.95));
});
