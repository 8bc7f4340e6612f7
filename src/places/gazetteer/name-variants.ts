import { ALT_NAME_SEPARATOR } from '../place-record';

// Other spellings that should find a name. The database folds accents (unaccent: "München" →
// "munchen"), but German writes umlauts without the dots as ae/oe/ue ("Muenchen"), which no
// accent folding produces: those spellings are added as alternative names.
const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };

/** "München" → ["Muenchen"]; [] when the name has no umlaut. */
export function spellingVariants(name: string): string[] {
  if (!/[äöüÄÖÜ]/.test(name)) return [];
  return [name.replace(/[äöüÄÖÜ]/g, (c) => UMLAUTS[c])];
}

// Alternative names are one text, the names separated by ALT_NAME_SEPARATOR; this keeps each name once (case-insensitively),
// in first-seen order, and leaves out the ones the label already holds.
export function joinAltNames(label: string, names: Iterable<string | null | undefined>): string {
  const seen = new Set([label.toLowerCase()]);
  const out: string[] = [];
  for (const n of names) {
    const v = n?.trim();
    if (!v || seen.has(v.toLowerCase())) continue;
    seen.add(v.toLowerCase());
    out.push(v);
  }
  return out.join(ALT_NAME_SEPARATOR);
}

const LATIN = /^[\p{Script=Latin}\p{Zs}\p{P}\p{N}]+$/u;
/** Names written in Latin script (other scripts stay out of every locality's alternative names). */
export function isLatin(name: string): boolean {
  return LATIN.test(name);
}
