import { v5 as uuidv5 } from 'uuid';
import type { RawRecord } from '../../imagery/imagery-feature';
import type { PhotoDetails } from '../../imagery/photo-details/photo-details';
import { imagePath } from '../serving/image-urls';
import type { ScannedPhoto } from './photo-scan';

// A kept photo as an imagery record: its id from its content (the same photo, moved or renamed, is the
// same record), no address (recovered from the places near it, as for any record without one), the
// service's own image URL, its heading (none when the photo gave no direction: it faces nothing) and its
// photo details.

const PHOTO_ID_NAMESPACE = '3b5d2a61-8f0e-4c8a-b7a4-0e9c6d1f2a57';

export function photoId(hash: string): string {
  return uuidv5(hash, PHOTO_ID_NAMESPACE);
}

const round = (n: number | undefined, digits: number) =>
  n === undefined ? null : Math.round(n * 10 ** digits) / 10 ** digits;

export function photoRecord(
  p: ScannedPhoto,
  at: { sequenceId: string; index: number; heading?: { degrees: number; fromSequence: boolean } },
): RawRecord {
  const id = photoId(p.hash);
  const m = p.metadata;
  const photo: PhotoDetails = {
    contentHash: p.hash,
    bytes: p.bytes,
    capturedTime: p.time.iso,
    timeZone: p.time.timeZone ?? null,
    offsetOrigin: p.time.offsetOrigin,
    make: m.make ?? null,
    model: m.model ?? null,
    width: m.width,
    height: m.height,
    orientation: m.orientation ?? null,
    projection: m.projection,
    panorama: m.panorama ?? null,
    altitude: round(p.altitude, 2),
    horizontalAccuracy: round(p.horizontalAccuracy, 2),
    headingOrigin: at.heading ? (at.heading.fromSequence ? 'sequence' : p.headingOrigin!) : 'none',
    headingReference: at.heading ? (at.heading.fromSequence ? 'true' : p.headingReference!) : null,
    positionOrigin: p.positionOrigin,
    sequenceId: at.sequenceId,
    sequenceIndex: at.index,
  };
  return {
    id,
    address: null,
    captured_at: p.time.date,
    heading: at.heading ? round(at.heading.degrees, 2)! % 360 : null,
    interactive: m.projection === 'equirectangular',
    image_url: imagePath(id, 'sd'),
    lon: round(p.lon, 7),
    lat: round(p.lat, 7),
    photo,
  };
}
