// What a file is by its first bytes (never by its name): a JPEG is imported, anything else is refused
// naming what it seems to be.
const SIGNATURES: ReadonlyArray<readonly [name: string, test: (b: Buffer) => boolean]> = [
  ['a PNG image', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['a GIF image', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8'],
  [
    'a WebP image',
    (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  ],
  ['a HEIF/HEIC or MP4 file', (b) => b.subarray(4, 8).toString('latin1') === 'ftyp'],
  ['a TIFF or raw image', (b) => ['II*\u0000', 'MM\u0000*'].includes(b.subarray(0, 4).toString('latin1'))],
  ['a PDF document', (b) => b.subarray(0, 5).toString('latin1') === '%PDF-'],
  ['a ZIP archive', (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))],
  ['an XML or GPX file', (b) => /^\s*<\?xml/.test(b.subarray(0, 64).toString('latin1'))],
];

export function isJpeg(head: Buffer): boolean {
  return head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
}

/** Why a file that is not a JPEG is refused: "not a JPEG (a PNG image)". */
export function notJpegReason(head: Buffer): string {
  if (head.length === 0) return 'not a JPEG (an empty file)';
  const known = SIGNATURES.find(([, test]) => test(head));
  return `not a JPEG (${known ? known[0] : 'unknown content'})`;
}
