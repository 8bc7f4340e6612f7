// Prints the regular expression bracket of lis_search_text (the search_text_one_pass migration): every
// printable character that is not a letter, mark or number as JavaScript's Unicode classes read it
// (tokenize's WORD, src/search/query/tokenize.ts), as code point ranges, which PostgreSQL compares the same
// in every locale. An unassigned code point is left to whichever side makes fewer ranges: none is in
// stored text, and a range across one stays a single range. `node scripts/word-separators.mjs`.
const WORD = /[\p{L}\p{M}\p{N}]/u;
const UNASSIGNED = /\p{Cn}/u;

const ranges = [];
let open = null;
// From '!': ASCII's space and controls below it are not printable, nor DEL, which ends a range.
for (let cp = 0x21; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  if (cp === 0x7f) {
    if (open) ranges.push(open);
    open = null;
    continue;
  }
  const c = String.fromCodePoint(cp);
  if (UNASSIGNED.test(c)) continue;
  if (WORD.test(c)) {
    if (open) ranges.push(open);
    open = null;
  } else if (open) open[1] = cp;
  else open = [cp, cp];
}
if (open) ranges.push(open);

const escape = (cp) =>
  cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`;
const bracket = `[${ranges.map(([a, b]) => (a === b ? escape(a) : `${escape(a)}-${escape(b)}`)).join('')}]`;
console.log(bracket);
console.error(`${ranges.length} ranges, ${bracket.length} characters (Unicode ${process.versions.unicode})`);
