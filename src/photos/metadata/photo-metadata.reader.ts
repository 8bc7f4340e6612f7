import exifr from 'exifr';
import { sharp } from '../image-library';
import { MAX_PHOTO_PIXELS } from '../photo-limits';
import { PHOTO_REJECTIONS, refuse } from '../photo-rejection';
import { coordinateValue, dateTimeValue, fractionMs, numberValue, offsetValue, textValue } from './exif-values';
import { isJpeg, notJpegReason } from './file-type';
import { projectionOf } from './panorama-detection';
import type { HeadingReference, PhotoMetadata } from './photo-metadata';

// The tags read, and only those: exifr skips every other block (maker notes, ICC, IPTC, thumbnails),
// and returns raw values (no dates revived in the process's time zone), so each form is read here.
const EXIFR_OPTIONS = {
  tiff: true,
  exif: true,
  gps: true,
  xmp: true,
  ifd1: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  interop: false,
  makerNote: false,
  userComment: false,
  multiSegment: false,
  reviveValues: false,
  translateValues: false,
  translateKeys: true,
  mergeOutput: false,
  sanitize: true,
  silentErrors: false,
} as const;

type Block = Record<string, unknown>;
type Blocks = Partial<Record<'ifd0' | 'exif' | 'gps' | 'GPano' | 'aux' | 'xmp' | 'tiff', Block>>;

// Markers of EXIF and XMP segments, to tell "no metadata at all" from metadata that would not parse.
const EXIF_HEADER = Buffer.from('Exif\u0000\u0000', 'latin1');
const XMP_HEADER = Buffer.from('http://ns.adobe.com/xap/1.0/', 'latin1');

/** Reads a JPEG's header and metadata; throws PhotoRejection for a file it refuses. */
export async function readPhotoMetadata(file: Buffer): Promise<PhotoMetadata> {
  if (!isJpeg(file)) refuse(PHOTO_REJECTIONS.type, notJpegReason(file));
  const { width, height } = await headerOf(file);
  const tags = await tagsOf(file);
  const first = <T>(read: (v: unknown) => T | undefined, ...values: unknown[]): T | undefined => {
    for (const v of values) {
      const r = read(v);
      if (r !== undefined) return r;
    }
    return undefined;
  };
  const { ifd0 = {}, exif = {}, gps = {}, aux = {} } = tags;
  // XMP's exif: namespace lands in `exif` beside the EXIF IFD (exifr merges them); GPS tags may be in either.
  const g = { ...exif, ...gps };

  const make = textValue(ifd0.Make);
  const model = textValue(ifd0.Model);
  const orientation = numberValue(ifd0.Orientation);
  const metadata: PhotoMetadata = {
    width,
    height,
    ...(orientation !== undefined && orientation >= 1 && orientation <= 8 ? { orientation } : {}),
    ...(make ? { make } : {}),
    ...(model ? { model } : {}),
    ...projectionOf(tags.GPano, { width, height }, { make, model }),
  };
  const serial = first(textValue, exif.BodySerialNumber, exif.SerialNumber, aux.SerialNumber);
  if (serial) metadata.serial = serial;

  const lat = coordinateValue(g.GPSLatitude, g.GPSLatitudeRef, 'S');
  const lon = coordinateValue(g.GPSLongitude, g.GPSLongitudeRef, 'W');
  // 0, 0 is what receivers without a fix write; no camera is at Null Island.
  if (lat !== undefined && lon !== undefined && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && (lat || lon)) {
    metadata.position = { lat, lon };
    const altitude = numberValue(g.GPSAltitude);
    if (altitude !== undefined && Math.abs(altitude) < 100_000) {
      metadata.position.altitude = numberValue(g.GPSAltitudeRef) === 1 ? -Math.abs(altitude) : altitude;
    }
    const accuracy = numberValue(g.GPSHPositioningError);
    if (accuracy !== undefined && accuracy >= 0 && accuracy < 100_000) metadata.position.horizontalAccuracy = accuracy;
  }

  const heading =
    directionOf(g.GPSImgDirection, g.GPSImgDirectionRef, 'exif') ?? directionOf(g.GPSTrack, g.GPSTrackRef, 'track');
  if (heading) metadata.heading = heading;
  else if (metadata.panorama?.poseHeading !== undefined) {
    metadata.heading = { degrees: metadata.panorama.poseHeading, reference: 'true', origin: 'exif' };
  }

  const time = first(dateTimeValue, exif.DateTimeOriginal, tags.xmp?.DateTimeOriginal, exif.CreateDate);
  if (time) {
    const subSec = textValue(exif.SubSecTimeOriginal);
    if (subSec && /^\d+$/.test(subSec) && time.millisecond === 0) time.millisecond = fractionMs(subSec);
    const offset = offsetValue(exif.OffsetTimeOriginal) ?? offsetValue(exif.OffsetTime);
    if (offset) time.offset = offset;
    metadata.localTime = time;
  }
  return metadata;
}

// The JPEG header's size (never EXIF's, which may describe a thumbnail or an original since resized).
async function headerOf(file: Buffer): Promise<{ width: number; height: number }> {
  let header: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    header = await sharp(file, { limitInputPixels: false }).metadata();
  } catch (error) {
    return refuse(PHOTO_REJECTIONS.image, `unreadable JPEG (${(error as Error).message})`);
  }
  const { width, height } = header;
  if (header.format !== 'jpeg' || !width || !height) return refuse(PHOTO_REJECTIONS.image, 'unreadable JPEG header');
  if (width * height > MAX_PHOTO_PIXELS) {
    refuse(
      PHOTO_REJECTIONS.size,
      `too large: ${width} x ${height} pixels, more than ${MAX_PHOTO_PIXELS.toLocaleString('en-US')}`,
    );
  }
  return { width, height };
}

async function tagsOf(file: Buffer): Promise<Blocks> {
  try {
    return ((await exifr.parse(file, EXIFR_OPTIONS)) as Blocks | undefined) ?? {};
  } catch (error) {
    if (file.indexOf(EXIF_HEADER) < 0 && file.indexOf(XMP_HEADER) < 0) return {};
    return refuse(PHOTO_REJECTIONS.metadata, `malformed EXIF/XMP metadata (${(error as Error).message})`);
  }
}

function directionOf(value: unknown, ref: unknown, origin: 'exif' | 'track'): PhotoMetadata['heading'] | undefined {
  const degrees = numberValue(value);
  if (degrees === undefined || degrees < 0 || degrees > 360) return undefined;
  const reference: HeadingReference = typeof ref === 'string' && ref.trim().toUpperCase() === 'M' ? 'magnetic' : 'true';
  return { degrees: degrees % 360, reference, origin };
}
