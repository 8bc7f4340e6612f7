import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';

// Camera files made for the tests: a JPEG of any size drawn by sharp (noise, so sizes and hashes differ),
// then its tags written by exiftool (Debian's libimage-exiftool-perl), as a camera would write them.
// Tag names are exiftool's (`GPSLatitude`, `XMP-GPano:ProjectionType`); numbers are written as such (-n).

export type Tags = Record<string, string | number>;

let seed = 1;

/** A JPEG of the size given, its pixels different from every other one made here. */
export async function jpegBytes(width: number, height: number, quality = 80): Promise<Buffer> {
  const n = seed++;
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: (n * 37) % 256, g: (n * 91) % 256, b: (n * 53) % 256 },
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality })
    .toBuffer();
}

export function writeTags(path: string, tags: Tags): void {
  writeTagsOf([[path, tags]]);
}

/** Writes the tags of many files with one exiftool process (its start is most of the cost). */
export function writeTagsOf(files: ReadonlyArray<readonly [path: string, tags: Tags]>): void {
  const commands = files
    .filter(([, tags]) => Object.keys(tags).length > 0)
    .map(([path, tags]) => [
      '-q',
      '-q',
      '-overwrite_original',
      '-n',
      ...Object.entries(tags).map(([tag, value]) => `-${tag}=${value}`),
      path,
      '-execute',
    ]);
  if (commands.length === 0) return;
  // One argument a line (-@ -): a path with a newline in it cannot be given this way, so none may have one.
  const lines = commands.flat();
  if (lines.some((l) => l.includes('\n'))) throw new Error('exiftool arguments cannot hold a newline');
  execFileSync('exiftool', ['-@', '-'], { input: `${lines.join('\n')}\n`, stdio: ['pipe', 'ignore', 'pipe'] });
}

/** Writes a photo at `path` with these tags (and the pixels asked for; 320 x 240 by default). */
export async function writePhoto(
  path: string,
  tags: Tags,
  size: { width: number; height: number } = { width: 320, height: 240 },
): Promise<void> {
  writeFileSync(path, await jpegBytes(size.width, size.height));
  writeTags(path, tags);
}

/** The tags of a photo taken at a point, at a local time (with its offset when given). */
export function cameraTags(o: {
  lat?: number;
  lon?: number;
  time?: string;
  subSec?: string;
  offset?: string;
  direction?: number;
  directionRef?: 'T' | 'M';
  track?: number;
  make?: string;
  model?: string;
  serial?: string;
}): Tags {
  const tags: Tags = {};
  if (o.lat !== undefined && o.lon !== undefined) {
    Object.assign(tags, {
      GPSLatitude: Math.abs(o.lat),
      GPSLatitudeRef: o.lat < 0 ? 'S' : 'N',
      GPSLongitude: Math.abs(o.lon),
      GPSLongitudeRef: o.lon < 0 ? 'W' : 'E',
    });
  }
  if (o.time) tags.DateTimeOriginal = o.time;
  if (o.subSec) tags.SubSecTimeOriginal = o.subSec;
  if (o.offset) tags.OffsetTimeOriginal = o.offset;
  if (o.direction !== undefined)
    Object.assign(tags, { GPSImgDirection: o.direction, GPSImgDirectionRef: o.directionRef ?? 'T' });
  if (o.track !== undefined) Object.assign(tags, { GPSTrack: o.track, GPSTrackRef: 'T' });
  if (o.make) tags.Make = o.make;
  if (o.model) tags.Model = o.model;
  if (o.serial) tags.SerialNumber = o.serial;
  return tags;
}

/** A JPEG whose frame header declares this size (a decompression bomb: the header lies about the pixels). */
export async function bombJpeg(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await jpegBytes(16, 16));
  for (let i = 2; i < bytes.length - 9; i++) {
    // SOF0 / SOF2: FF C0|C2, length (2), precision (1), height (2), width (2).
    if (bytes[i] === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2)) {
      bytes.writeUInt16BE(height, i + 5);
      bytes.writeUInt16BE(width, i + 7);
      return bytes;
    }
  }
  throw new Error('no frame header');
}

/** A JPEG whose EXIF IFD0 claims 65,535 entries (its block holds a handful). */
export function absurdEntryCount(jpeg: Buffer): Buffer {
  const bytes = Buffer.from(jpeg);
  const exif = bytes.indexOf(Buffer.from('Exif\u0000\u0000', 'latin1'));
  if (exif < 0) throw new Error('no EXIF block');
  const tiff = exif + 6;
  const little = bytes.toString('latin1', tiff, tiff + 2) === 'II';
  const ifd0 = tiff + (little ? bytes.readUInt32LE(tiff + 4) : bytes.readUInt32BE(tiff + 4));
  if (little) bytes.writeUInt16LE(0xffff, ifd0);
  else bytes.writeUInt16BE(0xffff, ifd0);
  return bytes;
}
