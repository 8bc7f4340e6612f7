// One collection per imagery `source`; its id is the source itself. The records imported without a
// source are in the collection `unsourced`, with those of a source of that very name (docs/stac.md).
export const UNSOURCED_COLLECTION = 'unsourced';

export function collectionOfSource(source: string | null): string {
  return source ?? UNSOURCED_COLLECTION;
}
