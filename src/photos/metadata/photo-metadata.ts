import type { PanoramaGeometry, Projection } from '../../imagery/photo-details/photo-details';
import type { LocalDateTime } from './exif-values';

// What a camera file says about itself, read from its EXIF and XMP (photo-metadata.reader.ts): each field
// is absent when the file has no readable value for it.

export type HeadingReference = 'true' | 'magnetic';

export interface PhotoMetadata {
  /** Pixels as stored (before orientation), from the JPEG header itself. */
  width: number;
  height: number;
  /** EXIF orientation 1-8 (1: as stored). */
  orientation?: number;
  make?: string;
  model?: string;
  serial?: string;
  position?: { lat: number; lon: number; altitude?: number; horizontalAccuracy?: number };
  /** GPSImgDirection ('exif'), else GPSTrack, the direction of travel ('track'); degrees in [0, 360). */
  heading?: { degrees: number; reference: HeadingReference; origin: 'exif' | 'track' };
  /** DateTimeOriginal with SubSecTimeOriginal and OffsetTimeOriginal (or an offset the XMP time carries). */
  localTime?: LocalDateTime;
  projection: Projection;
  panorama?: PanoramaGeometry;
}
