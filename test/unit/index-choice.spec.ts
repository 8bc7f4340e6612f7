import { buildTextQuery } from '../../src/search/query/text-query';
import { unknownWords } from '../../src/search/vocabulary/typo-correction';
import { EMPTY_VOCABULARY, Vocabulary } from '../../src/search/vocabulary/vocabulary-lookup';
import { shapeTextQuery, shouldSplitPrefix } from '../../src/search/planning/index-choice';

const vocabulary = (rows: number, docs: Record<string, number>) => new Vocabulary(Object.entries(docs), rows);
const shape = (q: string, v: Vocabulary) => shapeTextQuery(buildTextQuery(q)!, v, 10_000);
// The split rule for a last word that stays a prefix (as place lookups keep it).
const split = (q: string, v: Vocabulary) => shouldSplitPrefix(buildTextQuery(q)!, v);

describe('shapeTextQuery', () => {
  const catalogue = vocabulary(1_000_000, {
    street: 340_000,
    united: 600_000,
    states: 600_000,
    statesboro: 1_000,
    jefferson: 13_000,
    jeffers: 200,
    valley: 4_000,
    maple: 9_000,
    avenue: 180_000,
    springfield: 8_000,
    brookhaven: 6_000,
    brooklyn: 5_000,
  });

  it('splits off a last word that is commoner than the rarest other word', () => {
    expect(split('101 Valley Street, United States', catalogue)).toBe(true);
  });

  it('keeps a rare last word in the index lookup, where it narrows most', () => {
    expect(split('street jeffers', catalogue)).toBe(false);
    expect(split('Valley Street, Bluffs', catalogue)).toBe(false);
  });

  it('estimates the matches of words it counts, and of a last prefix of letters however short', () => {
    expect(shape('Springfield', catalogue).estimate).toBe(8_000);
    expect(shape('Brook', catalogue).estimate).toBe(11_000); // brookhaven + brooklyn
    expect(shape('Jefferson Valley', catalogue).estimate).toBe(52); // 13,000 x 4,000 / 1,000,000
    expect(shape('Maple Spr', catalogue).estimate).toBe(72); // spr*: springfield
  });

  it('estimates the words of the place the query names as going together: as many as the rarest', () => {
    const elPaso = vocabulary(10_000_000, { washington: 200_000, drive: 600_000, el: 48_000, paso: 40_000 });
    const named = (q: string, words: string[]) => shapeTextQuery(buildTextQuery(q)!, elPaso, 10_000, words).estimate;
    expect(shape('El Paso', elPaso).estimate).toBe(192); // as if independent: 48,000 x 40,000 / 10M
    expect(named('El Paso', ['el', 'paso'])).toBe(40_000);
    expect(named('El Pa', ['el', 'paso'])).toBe(40_000); // the last word a prefix of a word of the name
    // The other words stay independent of the name's: 10M x 2% x 6% x (paso) 0.4%.
    expect(named('Washington Drive, El Paso', ['el', 'paso'])).toBe(48);
    // One word of the name in the query: nothing goes together.
    expect(named('Washington Paso', ['el', 'paso'])).toBe(shape('Washington Paso', elPaso).estimate);
  });

  it('estimates nothing for a number, a one-letter whole word or words expected in no address', () => {
    expect(shape('12 Valley', catalogue).estimate).toBeNull();
    expect(shape('Q Springfield', catalogue).estimate).toBeNull();
    expect(shape('Zzyzx', catalogue).estimate).toBeNull();
    expect(shape('Valley Brooklyn Springfield', catalogue).estimate).toBeNull(); // 0.16 expected
  });

  it('counts two-letter words: the other spellings of a word ("av") and words such as "el" are weighed too', () => {
    // avenue | ave | av: 180,000 addresses (ave and av in none).
    expect(shape('Valley Avenue', catalogue).estimate).toBe(720);
    const withEl = vocabulary(1_000_000, { el: 3_000, paso: 2_000, park: 40_000, parkway: 20_000 });
    // pa* (62,000) is over five times el's 3,000: GIN looks up el, the prefix filters.
    expect(split('El Pa', withEl)).toBe(true);
    expect(shape('El Pa', withEl).estimate).toBe(186);
    // A two-letter prefix with few completions is spelt out as they are.
    expect(shape('Valley Br', catalogue).completed).toBe(
      "('valley' | 'vly') & ('brookhaven' | 'brooklyn' | 'brace' | 'branch' | 'brucke')",
    );
  });

  it('splits only on words the vocabulary counts: a one-letter word or a number may be in any number of addresses', () => {
    expect(split('Q Springf', catalogue)).toBe(false);
    expect(split('12 Springf', catalogue)).toBe(false);
    expect(split('12 Valley Springf', catalogue)).toBe(false); // springf*: 2 times valley's
    expect(split('12 Valley Sta', catalogue)).toBe(true);
  });

  it('keeps a last word only a few times commoner than the rarest other in the index lookup too', () => {
    // jeff*: 13,200 addresses, 3.3 times valley's; sta*: 601,000, 150 times.
    expect(split('Valley Jeff', catalogue)).toBe(false);
    expect(split('Valley Sta', catalogue)).toBe(true);
  });

  it('spells out a last word with few completions as whole words, its other spellings kept', () => {
    expect(shape('Valley Brook', catalogue).completed).toBe("('valley' | 'vly') & ('brookhaven' | 'brooklyn' | 'brk')");
    expect(shape('101 Valley Avenue', catalogue).completed).toBe(
      "'101' & ('valley' | 'vly') & ('avenue' | 'av' | 'ave' | 'avenues')",
    );
    expect(shape('Jeff', catalogue).completed).toBe("('jeffers' | 'jefferson')");
  });

  it('keeps the prefix when the vocabulary cannot list its completions: too many, none, short or with digits', () => {
    const many = vocabulary(1_000_000, Object.fromEntries([...'abcdefghijklmnopq'].map((c) => [`map${c}`, 10])));
    expect(shape('Valley Map', many).completed).toBeUndefined(); // 17 words
    expect(shape('Valley Zzyzx', catalogue).completed).toBeUndefined(); // none: a word imported since, or none
    expect(shape('Valley B', catalogue).completed).toBeUndefined(); // one letter: the vocabulary holds no such words
    expect(shape('Valley 35t', catalogue).completed).toBeUndefined();
  });

  it('splits a spelt-out last word only when the other words match few addresses', () => {
    // valley (4,000) & sta* (601,000 in 2 words): the split would read valley's 4,000 records.
    expect(shape('Valley Sta', catalogue)).toMatchObject({
      completed: "('valley' | 'vly') & ('states' | 'statesboro')",
      splitPrefix: false,
    });
    // brookhaven & valley: 24 expected, read and rechecked.
    expect(shape('Brookhaven Valley Sta', catalogue)).toMatchObject({
      completed: expect.any(String),
      splitPrefix: true,
    });
  });

  it('looks up only the rarest counted words when they narrow to a few records, the whole query filtering', () => {
    // brookhaven (6,000) & valley (4,000): 24 expected; avenue (with ave, av) is left to the filter.
    expect(shape('Brookhaven Valley Avenue', catalogue).indexed).toBe("'brookhaven' & ('valley' | 'vly')");
    // valley, then street (st, its other spelling, counted too): 1,360 expected; a house number is
    // not counted.
    expect(shape('101 Valley Street, United States', catalogue).indexed).toBe("('valley' | 'vly') & ('street' | 'st')");
    // Without street: valley, united, then states spelt out (1,443 expected).
    expect(shape('101 Valley, United States', catalogue).indexed).toBe(
      "('valley' | 'vly') & 'united' & ('states' | 'statesboro')",
    );
    // Every word needed, or too many matches whatever is looked up: the usual lookup.
    expect(shape('Brookhaven Valley', catalogue).indexed).toBeUndefined();
    expect(shape('Maple Avenue', catalogue).indexed).toBeUndefined();
    expect(shape('Valley', catalogue).indexed).toBeUndefined();
    // A two-letter word goes with the word it belongs to ("el" with "paso"): not taken to narrow.
    const elPaso = vocabulary(10_000_000, { washington: 200_000, drive: 600_000, el: 48_000, paso: 40_000 });
    expect(shape('Washington Drive, El Paso', elPaso).indexed).toBe("'washington' & 'paso'");
    // A catalogue of 2,000 records or fewer: nothing to narrow, never an empty lookup.
    expect(
      shape('Brookhaven Valley Avenue', vocabulary(1_500, { brookhaven: 10, valley: 20 })).indexed,
    ).toBeUndefined();
  });

  it('decides a prefix as shapeTextQuery does when the last word has no completions to spell out', () => {
    const many = vocabulary(1_000_000, {
      valley: 4_000,
      ...Object.fromEntries([...'abcdefghijklmnopq'].map((c) => [`sta${c}`, 40_000])),
    });
    expect(shape('Valley Sta', many)).toMatchObject({ splitPrefix: true });
    expect(shape('Valley Sta', many).completed).toBeUndefined();
    expect(split('Valley Sta', many)).toBe(true);
    expect(split('Valley Street', EMPTY_VOCABULARY)).toBe(false);
  });

  it('calls one word broad when the commonest word it reaches is in more addresses than the cap, with a margin', () => {
    expect(shape('street', catalogue).broad).toBe(true); // 340,000 rows
    expect(shape('jeff', catalogue).broad).toBe(true); // jefferson: 13,000
    expect(shape('brook', catalogue).broad).toBe(false); // 11,000 together, but no one word over the cap: counted
    expect(shape('valley', catalogue).broad).toBe(false); // 4,000: counted
    expect(shape('street', vocabulary(50_000, { street: 10_500 })).broad).toBe(false); // within the margin
  });

  it('calls several known words broad when their estimate is far above the cap', () => {
    expect(shape('united states', catalogue).broad).toBe(true); // ~360,000 if independent
    expect(shape('maple avenue springfield', catalogue).broad).toBe(false); // ~13
    // A house number the vocabulary does not hold: nothing is known of it, so it is counted.
    expect(shape('41 united states', catalogue).broad).toBe(false);
  });

  describe('ranked lists', () => {
    const listed = new Set([
      'street',
      'jefferson',
      'maple',
      'brookhaven',
      'brooklyn',
      'avenue',
      'united',
      'states',
      'valley',
      'ridge',
    ]);
    const withLists = new Vocabulary(
      Object.entries({
        street: 340_000,
        jefferson: 13_000,
        jeffers: 200,
        maple: 9_000,
        mapleton: 8_000,
        brookhaven: 6_000,
        brooklyn: 5_000,
        brookside: 1_500,
        avenue: 180_000,
        united: 600_000,
        states: 600_000,
        valley: 1_900,
        ridge: 950,
      }).map(([w, d]) => [w, d, listed.has(w)] as const),
      1_000_000,
    );

    it('takes a common word or prefix from the lists of its listed completions, commonest first, estimating its total', () => {
      expect(shape('street', withLists).lists).toEqual({
        words: ['street'],
        estimate: 340_000,
        checked: false,
        floor: 340_000,
      });
      expect(shape('Jeff', withLists).lists).toEqual({
        words: ['jefferson'],
        estimate: 13_200,
        checked: false,
        floor: 13_000,
      });
      expect(shape('brook', withLists).lists).toEqual({
        words: ['brookhaven', 'brooklyn'],
        estimate: 12_500,
        checked: false,
        floor: 6_000, // the commonest listed completion's records: the others may share addresses
      });
      expect(shape('maple', withLists).lists).toEqual({
        words: ['maple'],
        estimate: 17_000,
        checked: false,
        floor: 9_000,
      }); // 9,000 of 17,000
      // More matches than the head ranks: the lists rank the best, not the first found.
      expect(shape('valley', withLists).lists).toEqual({
        words: ['valley'],
        estimate: 1_900,
        checked: false,
        floor: 1_900,
      });
    });

    it("takes a prefix with a list of its own from that list (the search's own ranking)", () => {
      const prefixed = new Vocabulary(
        [
          ['brooklyn', 1_500, true],
          ['brook', 800, true],
          ['bronx', 490],
          ['brownsville', 400],
        ],
        1_000_000,
        ['bro'],
      );
      expect(shape('Bro', prefixed).lists).toEqual({ words: ['bro*'], estimate: 3_190, checked: false, floor: 1_500 });
      expect(shape('Broo', prefixed).lists).toEqual({
        words: ['brooklyn', 'brook'],
        estimate: 2_300,
        checked: false,
        floor: 1_500,
      });
    });

    it('takes several common words from the lists of the rarest, checked for the others', () => {
      expect(shape('united states', withLists).lists).toEqual({
        words: ['united'],
        estimate: 360_000,
        checked: true,
        floor: 0,
      }); // a tie: the first
      expect(shape('maple avenue', withLists).lists).toBeNull(); // ~3,000 expected, 180 of maple's list
    });

    it('counts as usual when the listed completions hold less than half the matches, or the word is rare', () => {
      expect(shape('mapleton', withLists).lists).toBeNull(); // no list of its own
      expect(shape('ridge', withLists).lists).toBeNull(); // 950 addresses: the head ranks them all
      expect(shape('41 united states', withLists).lists).toBeNull(); // a number: nothing known of it
      expect(shape('street', catalogue).lists).toBeNull(); // no lists built yet
    });
  });

  it('without a vocabulary (an empty catalogue) sends the plain query', () => {
    expect(shape('101 Valley Street, United States', EMPTY_VOCABULARY)).toEqual({
      splitPrefix: false,
      broad: false,
      lists: null,
      estimate: null,
    });
    expect(shape('street', EMPTY_VOCABULARY)).toEqual({
      splitPrefix: false,
      broad: false,
      lists: null,
      estimate: null,
    });
  });
});

describe('unknownWords', () => {
  const catalogue = vocabulary(1_000, { maple: 10, avenue: 20, springfield: 5, saint: 3 });
  const unknowns = (v: typeof catalogue, q: string) => unknownWords(buildTextQuery(q)!, v);
  const unknown = (q: string) => unknowns(catalogue, q);

  it('names the words no address holds', () => {
    expect(unknown('Maple Avenue, Sprongfield')).toEqual(['sprongfield']);
    expect(unknown('Maple Avenue, Spr')).toEqual([]); // the last word as typed so far: a prefix
    expect(unknown('Mapel Avenue, Springfield')).toEqual(['mapel']);
    expect(unknown('Maple Avenue, Sprongfield, Illinois')).toEqual(['sprongfield', 'illinois']);
  });

  it('knows a prefix by its completions, and a word by any spelling of its group', () => {
    expect(unknown('Maple Sprin')).toEqual([]);
    expect(unknown('Maple Sprun')).toEqual(['sprun']);
    expect(unknown('st maple')).toEqual([]); // "st": a spelling of street
  });

  it('says nothing of numbers, words the vocabulary would not hold, or two-letter words (often codes)', () => {
    expect(unknown('41 Maple Avenue')).toEqual([]);
    expect(unknown('ab Maple')).toEqual([]);
    expect(unknown('li 9490-35')).toEqual([]);
    expect(unknown('Maple 9a4')).toEqual([]);
  });

  it('knows ordinals, the one kind of word with digits it holds', () => {
    expect(unknown('35th Avenue')).toEqual(['35th']);
    expect(unknowns(vocabulary(1_000, { '35th': 4, avenue: 20 }), '35th Avenue')).toEqual([]);
  });
});
