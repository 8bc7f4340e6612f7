import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  inVocabularyShape,
  VOCABULARY_WORD,
  vocabularyWordFunctionBody,
  vocabularyWordFunctionStatement,
} from '../../src/search/vocabulary/vocabulary-word';

// The database's lis_vocabulary_word as the migrations leave it (npm run sql:functions writes the file;
// the medium spec database-functions.spec.ts fails when the file and a migrated database differ).
const FILE = join(__dirname, '..', '..', 'src', 'database', 'functions', 'lis_vocabulary_word.sql');
const words = (sql: string) => sql.trim().split(/\s+/).join(' ');

describe('the shape of a vocabulary word, written once', () => {
  it('is the function the migrations leave in the database', () => {
    const migrated = /AS \$function\$([\s\S]*)\$function\$/.exec(readFileSync(FILE, 'utf8'))?.[1] ?? '';
    if (words(migrated) !== words(vocabularyWordFunctionBody()))
      throw new Error(
        `VOCABULARY_WORD changed: add a migration with\n${vocabularyWordFunctionStatement()}then run npm run sql:functions`,
      );
  });

  it.each([
    ['vaduz', true],
    ['zürich', true],
    ['35th', true],
    ['1st', true],
    ['a', false],
    ['35', false],
    ['b2b', false],
    ['x'.repeat(VOCABULARY_WORD.maxLength), true],
    ['x'.repeat(VOCABULARY_WORD.maxLength + 1), false],
  ])('%s: %s in TypeScript', (word, held) => {
    expect(inVocabularyShape(word)).toBe(held);
  });
});
