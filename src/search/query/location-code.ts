// The longest query read as a location code (the address_code column holds codes of any length; a
// longer query is text).
const CODE_MAX_LENGTH = 64;

// A query that could be an identifier stored as an address: letters and digits in groups separated
// by - _ . / or spaces. Compared without separators and case, like the address_code column.
export function locationCodeOf(query: string): string | null {
  const q = query.trim();
  if (q.length === 0 || q.length > CODE_MAX_LENGTH) return null;
  if (!/^[A-Za-z0-9]+(?:[-_./ ]+[A-Za-z0-9]+)*$/.test(q)) return null;
  return q.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}
