import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RequestException, RequestExceptionCode } from '../common/app-exception';

// The map's glyphs: SDF ranges of 256 code points per font stack, built by scripts/build-glyphs.mjs
// into dist/glyphs. A range the fonts do not cover (say CJK) is answered with an empty range, not a
// 404: MapLibre then leaves those characters out instead of failing the tile's labels.

export const FONTSTACKS = ['Noto Sans Regular', 'Noto Sans Medium'];
const LAST_RANGE_START = 65280; // 0xff00: the glyph protocol covers the Basic Multilingual Plane

export function glyphRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'glyphs');
}

// "Noto Sans Medium,Noto Sans Regular" (MapLibre joins a text-font list with commas): the first stack
// this service has.
export function fontstackOf(requested: string): string {
  const found = requested
    .split(',')
    .map((name) => name.trim())
    .find((name) => FONTSTACKS.includes(name));
  if (!found)
    throw new RequestException(RequestExceptionCode.NOT_FOUND, 'No such font stack', [
      { field: 'fontstack', message: `fontstack must name one of: ${FONTSTACKS.join(', ')}` },
    ]);
  return found;
}

export function rangeStart(range: string): number {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(range);
  const start = match ? Number(match[1]) : NaN;
  if (!match || start % 256 !== 0 || start > LAST_RANGE_START || Number(match[2]) !== start + 255)
    throw new RequestException(RequestExceptionCode.INVALID_REQUEST, 'Invalid glyph range', [
      { field: 'range', message: 'range must be {start}-{start + 255} with start a multiple of 256 up to 65280' },
    ]);
  return start;
}

export async function glyphRange(root: string, fontstack: string, start: number): Promise<Buffer> {
  try {
    return await readFile(join(root, fontstack, `${start}-${start + 255}.pbf`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return emptyRange(fontstack, start);
  }
}

// glyphs { fontstack stacks = 1 { string name = 1; string range = 2; } } with no glyph in it.
export function emptyRange(fontstack: string, start: number): Buffer {
  const field = (tag: number, bytes: Buffer) =>
    Buffer.concat([Buffer.from([(tag << 3) | 2]), varint(bytes.length), bytes]);
  const stack = Buffer.concat([field(1, Buffer.from(fontstack)), field(2, Buffer.from(`${start}-${start + 255}`))]);
  return field(1, stack);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  bytes.push(n);
  return Buffer.from(bytes);
}
