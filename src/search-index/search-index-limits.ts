// The sizes the search index is built with. They live here, not in search/, because both sides need
// them: the refreshes after an import build the lists with them, and searches read the lists by them.

// A ranked list holds its word's best this many records: as many as a text search ranks by score
// (search-limits.ts's SCORE_CAP is this number), so a search's ranked head can come from a list.
export const RANKED_LIST_SIZE = 1_000;
// Words in at least this many addresses get a ranked list of their best RANKED_LIST_SIZE records
// (see the ranked_word_lists migration): below it, gathering and scoring every match is cheap. At
// 1M records (bench dataset): 506 lists, 418,390 entries (2,000: 123 lists, but a 3-letter prefix
// such as "Bro", 7,000 matches over many mid-size words, then found too few of them listed).
export const RANKED_LIST_MIN_DOCS = 500;
// Prefixes of 3-5 letters with more matches than the head ranks, spread over many words (none
// holding a third), get a list of their own. A search takes its head from ranked lists as soon as it
// has more than SCORE_CAP matches (estimated): the head-tail path would rank only the first SCORE_CAP
// found, and scoring them cost 5 ms of a 14 ms "Charlotte" (1,645 matches, measured at 1M records).
// At 2,000, "Bol" (1,829 matches over bolivia, bolton, ...) was gathered and scored: 11.3 ms, 4.2 ms
// from its list; 267 prefix lists instead of 112 at 1M records, the 155 more built in 3.2 s.
export const PREFIX_LIST_MIN_MATCHES = RANKED_LIST_SIZE;

// Places handed to ranking, most important first (and the length of a place term list).
export const PLACE_CANDIDATES = 200;
// Word starts held by at least this many pinnable places get a term list of their PLACE_CANDIDATES
// most important (see the place_term_lists migration): 1,313 lists at 1M records (530,000 places),
// built in 8.8 s. Below it, the index and the heap read cost a few milliseconds at most.
export const PLACE_TERM_MIN_PLACES = 1_000;
