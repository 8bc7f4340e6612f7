// German writes ä, ö and ü as ae, oe and ue where the letters cannot be typed ("Muenchen",
// "Koeln", "Zuerich"); the index folds the letters to a, o and u (lis_normalize: "München" is
// "munchen"), which no accent folding makes of the two-letter spelling. A folded query word with ae,
// oe or ue is also searched as the index holds the umlaut's word: every such pair as its first
// letter ("muenchen" -> "munchen"). Not after q ("que", "Quebec"), nor at the end of a word
// ("avenue", "rue", "Monroe"), where such a pair is seldom an umlaut and often English or French. The
// index keeps a name written with ae/oe/ue as written, so "Muenchen" still finds it too.
const UMLAUT_PAIR = /(?<!q)([aou])e(?!$)/gu;

/** The word as the index folds its umlauts, when it spells one with two letters; [] otherwise. */
export function umlautSpellings(word: string): string[] {
  const folded = word.replace(UMLAUT_PAIR, '$1');
  return folded !== word && [...folded].length > 1 ? [folded] : [];
}
