// The shape of a word the vocabulary holds, once: letters only, or an ordinal such as 35th; 2 to 64
// characters. The database collects words of this shape (its triggers call lis_vocabulary_word, whose
// text is written here: test/unit/vocabulary-word-function.spec.ts fails while the function the
// migrations leave differs, and prints the statement a new migration needs), and the search asks
// inVocabularyShape before it trusts the vocabulary's silence about a word.
export const VOCABULARY_WORD = {
  minLength: 2,
  maxLength: 64,
  ordinalSuffixes: ['st', 'nd', 'rd', 'th'],
} as const;

const ORDINAL = new RegExp(`^[0-9]+(?:${VOCABULARY_WORD.ordinalSuffixes.join('|')})$`);

/** Whether the vocabulary would hold a word of this shape: if not, it says nothing about the word. */
export function inVocabularyShape(word: string): boolean {
  const n = [...word].length;
  return (
    n >= VOCABULARY_WORD.minLength && n <= VOCABULARY_WORD.maxLength && (/^\p{L}+$/u.test(word) || ORDINAL.test(word))
  );
}

/** The body of lis_vocabulary_word(word), from VOCABULARY_WORD. */
export function vocabularyWordFunctionBody(): string {
  const { minLength, maxLength, ordinalSuffixes } = VOCABULARY_WORD;
  return `
  SELECT length(word) BETWEEN ${minLength} AND ${maxLength} AND (word !~ '[^[:alpha:]]' OR word ~ '^[0-9]+(${ordinalSuffixes.join('|')})$')
`;
}

/** What a migration runs to give the database the function of the current shape. */
export function vocabularyWordFunctionStatement(): string {
  return (
    'CREATE OR REPLACE FUNCTION "lis_vocabulary_word"(word TEXT) RETURNS BOOLEAN\n' +
    `  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$${vocabularyWordFunctionBody()}$$;\n` +
    '-- then rebuild imagery_words from the imagery: it holds the words of the old shape until then\n'
  );
}
