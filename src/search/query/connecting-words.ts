// Connecting words between what a query asks for and where ("pharmacy near 47.14,9.52", "hotel in
// Vaduz", "Apotheke bei Schaan"), folded as tokenize folds them, longest first so "in der nahe von"
// wins over "in".
const CONNECTORS = ['in der nahe von', 'in der nahe', 'nearby', 'near', 'around', 'in', 'at', 'bei', 'nahe']
  .map((c) => c.split(' '))
  .sort((a, b) => b.length - a.length);

/** How many of the first words are a connector (0 when none). */
export function leadingConnector(words: ReadonlyArray<string | null>): number {
  return CONNECTORS.find((c) => c.every((w, i) => words[i] === w))?.length ?? 0;
}

/** How many of the last words are a connector (0 when none). */
export function trailingConnector(words: ReadonlyArray<string | null>): number {
  const n = words.length;
  return CONNECTORS.find((c) => c.length <= n && c.every((w, i) => words[n - c.length + i] === w))?.length ?? 0;
}
