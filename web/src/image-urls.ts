// The image URLs of a record made from a photo (the service's /images/{id}/sd.jpg, or for a query that
// names a place a 360 photo's /images/{id}/view.jpg?heading=...: docs/api.md#images), and the other
// sizes and views of it the page shows. A URL's ?sig= (IMAGE_URL_SECRET) is the record's for every
// size and view, so it is kept. No DOM here: unit-tested in test/unit/web-image-urls.spec.ts.

const PHOTO_IMAGE = /\/images\/([0-9a-f-]{36})\/(sd|view)\.jpg$/i;

/** A result card's image: 160 x 100 CSS pixels, asked for at twice that for sharp screens. */
export const CARD_VIEW = { width: 320, height: 200 } as const;

export type PhotoVariant = 'thumb' | 'sd' | 'hd' | 'original';

interface PhotoImage {
  url: URL;
  id: string;
  kind: 'sd' | 'view';
}

function photoImage(image: string): PhotoImage | null {
  let url: URL;
  try {
    url = new URL(image);
  } catch {
    return null;
  }
  const m = PHOTO_IMAGE.exec(url.pathname);
  return m ? { url, id: m[1], kind: m[2].toLowerCase() as 'sd' | 'view' } : null;
}

/** The URL of the photo's `variant` (its sig kept), or null for an image that is not a photo's. */
export function photoVariantUrl(image: string, variant: PhotoVariant): string | null {
  const photo = photoImage(image);
  if (!photo) return null;
  const url = new URL(photo.url.href);
  url.pathname = url.pathname.replace(PHOTO_IMAGE, `/images/${photo.id}/${variant}.jpg`);
  const sig = photo.url.searchParams.get('sig');
  url.search = sig === null ? '' : `?${new URLSearchParams({ sig })}`;
  return url.href;
}

/**
 * What a result card shows: a flat photo's thumbnail; for a 360 photo a small rendered view (the one
 * its image names, facing the place searched, or the view at its own heading), as an equirectangular
 * thumbnail would be a distorted strip; any other image as it is.
 */
export function cardImageUrl(image: string, interactive: boolean): string {
  const photo = photoImage(image);
  if (!photo) return image;
  if (!interactive) return photoVariantUrl(image, 'thumb')!;
  const url = new URL(photo.url.href);
  url.pathname = url.pathname.replace(PHOTO_IMAGE, `/images/${photo.id}/view.jpg`);
  url.searchParams.set('width', String(CARD_VIEW.width));
  url.searchParams.set('height', String(CARD_VIEW.height));
  return url.href;
}

/** The heading a record's image faces when it is a rendered view (the bearing to the place searched). */
export function viewHeading(image: string): number | null {
  const photo = photoImage(image);
  const heading = photo?.kind === 'view' ? photo.url.searchParams.get('heading') : null;
  if (heading === null || heading.trim() === '') return null;
  const degrees = Number(heading);
  return Number.isFinite(degrees) ? degrees : null;
}
