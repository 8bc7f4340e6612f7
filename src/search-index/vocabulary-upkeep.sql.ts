// The vocabulary's and the ranked lists' upkeep as statements, for the writers of imagery where it has no
// triggers: imagery distributed over Citus workers (docs/scaling.md#citus), where the import and relinking
// run these after their writes. On one server imagery's statement triggers do the same (lis_count_words,
// lis_unrank_readdressed, lis_unrank_deleted); the medium spec imagery-import-distributed.spec.ts
// compares both.

// imagery.address_tsv's expression (a generated column, the words_split_as_queries migration): the words
// an address adds to the vocabulary.
export const addressTsvSql = (address: string) => `to_tsvector('simple'::regconfig, lis_search_text(${address}))`;

// The vocabulary's counts: lis_add_word_counts (a migration's function, also what imagery's trigger
// lis_count_words runs) takes the words of the addresses a change removed and added, here queries yielding
// one tsvector per record (none: nothing).
const tsvectors = (query?: string) => (query ? `ARRAY(${query})` : `'{}'`);
export const addWordCountsSql = (change: { removed?: string; added?: string }) =>
  `SELECT lis_add_word_counts(${tsvectors(change.removed)}, ${tsvectors(change.added)})`;

// Records whose words changed, given as parameters (what relinking's statement returns where imagery is
// distributed).
export const READDRESSED_UPKEEP = {
  // $1 their words before and $2 after (tsvector text, NULL for none).
  countWords: 'SELECT lis_add_word_counts($1::text[]::tsvector[], $2::text[]::tsvector[])',
  // $1 their ids. lis_unrank_readdressed: they leave the ranked lists until the next refresh merges them
  // back.
  unrank: `DELETE FROM imagery_word_ranks r WHERE r.imagery_id = ANY ($1::uuid[])`,
};
