import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { captureTime, CaptureTime, shiftCapture, zoneAt } from '../metadata/capture-time';
import type { GpxTrack } from '../metadata/gpx-track';
import type { PhotoMetadata } from '../metadata/photo-metadata';
import { readPhotoMetadata } from '../metadata/photo-metadata.reader';
import { MAX_PHOTO_BYTES } from '../photo-limits';
import { PHOTO_REJECTIONS, refuse } from '../photo-rejection';
import type { PhotoFile } from './photo-folder.walker';
import type { SequencedPhoto } from './photo-sequences';

// One camera file read and placed: its bytes hashed, its metadata read, its position from its GPS tags
// (or the GPX track at its time), its capture instant (see capture-time.ts). What cannot be placed in
// space and time is refused with the reason.

export interface ScannedPhoto extends SequencedPhoto {
  file: PhotoFile;
  bytes: number;
  metadata: PhotoMetadata;
  time: CaptureTime;
  altitude?: number;
  horizontalAccuracy?: number;
  positionOrigin: 'exif' | 'track';
  /** Where `heading` came from, when the photo has one of its own. */
  headingOrigin?: 'exif' | 'track';
  headingReference?: 'true' | 'magnetic';
}

export interface ScanOptions {
  /** Places photos without GPS tags. */
  track?: GpxTrack;
  /** Seconds added to each photo's capture time (a camera clock that is off), before it is looked up in the track. */
  timeOffsetS: number;
}

/** Reads a whole file, refusing one over MAX_PHOTO_BYTES before reading it. */
export async function readPhotoFile(file: PhotoFile): Promise<Buffer> {
  const handle = await open(file.path, 'r').catch((error: NodeJS.ErrnoException) =>
    refuse(PHOTO_REJECTIONS.file, `unreadable file (${error.code ?? error.message})`),
  );
  try {
    const { size } = await handle.stat();
    if (size > MAX_PHOTO_BYTES) refuse(PHOTO_REJECTIONS.size, `too large: ${size} bytes, more than ${MAX_PHOTO_BYTES}`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export function contentHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function scanPhoto(file: PhotoFile, options: ScanOptions): Promise<ScannedPhoto> {
  const bytes = await readPhotoFile(file);
  const metadata = await readPhotoMetadata(bytes);
  const local = metadata.localTime;
  if (!metadata.position && !options.track) {
    refuse(
      PHOTO_REJECTIONS.position,
      metadata.make || local
        ? 'no position: no GPS tags (place it with --track <file.gpx>)'
        : 'no position: no EXIF or XMP metadata at all',
    );
  }
  if (!local) return refuse(PHOTO_REJECTIONS.time, 'no capture time (no DateTimeOriginal)');

  const positioned = metadata.position ?? options.track!.points[0];
  const camerasTime = captureTime(local, zoneAt(positioned.lat, positioned.lon));
  if (!camerasTime) return refuse(PHOTO_REJECTIONS.time, 'capture time is not a valid local time');
  const time = shiftCapture(camerasTime, options.timeOffsetS);

  const camera = JSON.stringify([metadata.make ?? '', metadata.model ?? '', metadata.serial ?? '']);
  const base = { file, bytes: bytes.length, metadata, time, hash: contentHash(bytes), camera, epochMs: time.epochMs };

  if (metadata.position) {
    const { lat, lon, altitude, horizontalAccuracy } = metadata.position;
    return {
      ...base,
      lat,
      lon,
      ...(altitude !== undefined ? { altitude } : {}),
      ...(horizontalAccuracy !== undefined ? { horizontalAccuracy } : {}),
      positionOrigin: 'exif',
      ...ownHeading(metadata),
    };
  }
  const track = options.track!;
  const at = time.epochMs;
  const fix = track.at(at);
  if (!fix) {
    refuse(
      PHOTO_REJECTIONS.track,
      `outside the track's time: taken ${new Date(at).toISOString()} (with --time-offset ${options.timeOffsetS} s), the track runs ${new Date(track.startMs).toISOString()} to ${new Date(track.endMs).toISOString()}`,
    );
  }
  return {
    ...base,
    lat: fix!.lat,
    lon: fix!.lon,
    ...(fix!.altitude !== undefined ? { altitude: fix!.altitude } : {}),
    positionOrigin: 'track',
    ...(metadata.heading
      ? ownHeading(metadata)
      : fix!.heading !== undefined
        ? { heading: fix!.heading, headingOrigin: 'track' as const, headingReference: 'true' as const }
        : {}),
  };
}

function ownHeading(m: PhotoMetadata): Pick<ScannedPhoto, 'heading' | 'headingOrigin' | 'headingReference'> {
  return m.heading
    ? { heading: m.heading.degrees, headingOrigin: m.heading.origin, headingReference: m.heading.reference }
    : {};
}
