import type { ImageVariant } from '../store/image-store';

// The service's own image URLs: /images/{record id}/{variant}.jpg, relative (joined to IMAGE_BASE_URL
// where a record's image is served, as any relative image path).
export function imagePath(id: string, variant: ImageVariant): string {
  return `images/${id}/${variant}.jpg`;
}

/** Whether a stored image path is one of the service's own photo images (its record's). */
export function isOwnImagePath(path: string): boolean {
  return path.startsWith('images/');
}
