// The vocabulary's and the ranked lists' upkeep as statements, for the writers of imagery where it has no
// triggers: imagery distributed over Citus workers (docs/scaling.md#citus), where the import and relinking
// run these after their writes. On one server imagery's statement triggers do the same (lis_count_words,
// lis_unrank_readdressed, lis_unrank_deleted); the medium spec imagery-import-distributed.spec.ts
// compares both.

// imagery.address_tsv's expression (a generated column, the words_split_as_queries migration): the words
// an address adds to the vocabulary.
export const addressTsvSql = (address: string) => `to_tsvector('simple'::regconfig, lis_search_text(${address}))`;

// lis_count_words's write: `changes` yields (tsv, n), n +1 for each record's new words and -1 for the
// words it had.
export function countWordsSql(changes: string): string {
  return `
    INSERT INTO imagery_words AS v (word, docs)
    SELECT w.word, sum(c.n)::int
    FROM (${changes}) AS c(tsv, n), unnest(tsvector_to_array(c.tsv)) AS w(word)
    WHERE lis_vocabulary_word(w.word)
    GROUP BY w.word
    HAVING sum(c.n) <> 0
    ORDER BY w.word
    ON CONFLICT (word) DO UPDATE SET docs = greatest(v.docs + EXCLUDED.docs, 0)`;
}

// Records whose words changed, given as parameters (what relinking's statement returns where imagery is
// distributed).
export const READDRESSED_UPKEEP = {
  // $1 their words before and $2 after (tsvector text, NULL for none).
  countWords: countWordsSql(`
      SELECT x.tsv::tsvector, -1 FROM unnest($1::text[]) AS x(tsv)
      UNION ALL
      SELECT x.tsv::tsvector, 1 FROM unnest($2::text[]) AS x(tsv)`),
  // $1 their ids. lis_unrank_readdressed: they leave the ranked lists until the next refresh merges them
  // back.
  unrank: `DELETE FROM imagery_word_ranks r WHERE r.imagery_id = ANY ($1::uuid[])`,
};
