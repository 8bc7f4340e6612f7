// The sizes the search index is built with. They live here, not in search/, because both sides need
// them: the refreshes after an import build the lists with them, and searches read the lists by them.

// A ranked list holds its word's best this many records: as many as a text search ranks by score
// (search-limits.ts's SCORE_CAP is this number), so a search's ranked head can come from a list.
export const RANKED_LIST_SIZE = 1_000;
// Words in at least this many addresses get a ranked list of their best RANKED_LIST_SIZE records
// (see the ranked_word_lists migration): below it, gathering and scoring every match is cheap
// (docs/benchmarks.md#fig-ranked-lists).
export const RANKED_LIST_MIN_DOCS = 500;
// Prefixes of 3-5 letters with more matches than the head ranks, spread over many words (none
// holding a third), get a list of their own. A search takes its head from ranked lists as soon as it
// has more than SCORE_CAP matches (estimated): the head-tail path would rank only the first SCORE_CAP
// found, and scoring them is most of such a search (docs/benchmarks.md#fig-prefix-lists).
export const PREFIX_LIST_MIN_MATCHES = RANKED_LIST_SIZE;

// Places handed to ranking, most important first (and the length of a place term list).
export const PLACE_CANDIDATES = 200;
// Word starts held by at least this many pinnable places get a term list of their PLACE_CANDIDATES
// most important (see the place_term_lists migration). Below it, the index and the heap read cost
// little (docs/benchmarks.md#fig-place-term-lists).
export const PLACE_TERM_MIN_PLACES = 1_000;
