import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tokenize } from '../../src/search/query/tokenize';
import { adoptDatabaseFolds, foldText } from '../../src/search/text-fold/text-fold';

// foldText is lis_normalize (lower(unaccent(text))) in TypeScript; test/medium/text-normalization.spec.ts
// compares the two on every character of the first two Unicode planes on a real database.
describe('foldText', () => {
  afterEach(() => adoptDatabaseFolds([], []));

  it.each([
    ['Łódź', 'lodz'],
    ['ØRSTED Æbelø', 'orsted aebelo'],
    ['Hauptstraße ẞ', 'hauptstrasse ss'],
    ['Đakovo Þingvellir', 'dakovo thingvellir'],
    ['O’Brien ʻOkina', "o'brien 'okina"],
  ])('folds %s to %s with the unaccent rules', (text, folded) => expect(foldText(text)).toBe(folded));

  it.each([
    ['Нижний Київ', 'нижний київ'], // й and ї are letters of their own: unaccent keeps them
    ['서울특별시', '서울특별시'], // Hangul stays composed
    ['हिन्दी', 'हिन्दी'], // vowel signs and virama stay
    ['ΟΔΟΣ', 'οδοσ'], // lower() maps a capital sigma to σ, never to the final ς
    ['İstanbul', 'istanbul'],
  ])('keeps %s as the database does (%s)', (text, folded) => expect(foldText(text)).toBe(folded));

  it('keeps the marks inside a word', () => {
    expect(tokenize('हिन्दी मार्ग 9')).toEqual(['हिन्दी', 'मार्ग', '9']);
  });

  it("follows the database's fold where it differs from the committed rules", () => {
    expect(adoptDatabaseFolds(['ª', 'Ł'], ['ª', 'l'])).toEqual(['ª']);
    expect(foldText('ªŁ')).toBe('ªl');
    adoptDatabaseFolds([], []);
    expect(foldText('ªŁ')).toBe('al');
  });
});

describe('unaccent-rules.json', () => {
  it('is what `npm run text-fold:rules` makes from the built-in database’s unaccent.rules', () => {
    const script = join(__dirname, '..', '..', 'scripts', 'write-unaccent-rules.mjs');
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
