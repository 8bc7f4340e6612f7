import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { isJpeg } from '../metadata/file-type';
import { MAX_WALK_ENTRIES } from '../photo-limits';
import { PHOTO_REJECTIONS, PhotoRejectionField } from '../photo-rejection';

// The files a photo import reads: each file named, and every file of each folder named, recursively, in
// name order. Names are read as bytes, so a name that is not UTF-8 is still opened (and reported with its
// odd bytes as \xNN). A link is followed only when it stays inside the folder given; a link out of it,
// and anything not a regular file, is refused with that reason.

export interface PhotoFile {
  /** The path as the file system knows it (bytes). */
  path: Buffer;
  /** The path as reports show it. */
  name: string;
}

export type WalkEntry = { file: PhotoFile } | { refused: { name: string; field: PhotoRejectionField; reason: string } };

export async function* walkPhotoFiles(roots: readonly string[]): AsyncGenerator<WalkEntry> {
  const budget = { left: MAX_WALK_ENTRIES };
  for (const root of roots) {
    const info = await stat(root);
    const path = Buffer.from(root);
    if (info.isDirectory()) {
      const inside = await realpath(root);
      yield* walkFolder(path, inside, new Set([inside]), budget);
    } else {
      yield entryFor(path, info.isFile());
    }
  }
}

async function* walkFolder(
  dir: Buffer,
  root: string,
  seen: Set<string>,
  budget: { left: number },
): AsyncGenerator<WalkEntry> {
  const entries = (await readdir(dir, { encoding: 'buffer', withFileTypes: true })) as unknown as Dirent<Buffer>[];
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  for (const entry of entries) {
    if (--budget.left < 0) throw new Error(`more than ${MAX_WALK_ENTRIES} entries under the folders given`);
    const path = Buffer.concat([dir, Buffer.from(sep), entry.name]);
    if (entry.isSymbolicLink()) {
      const target = await realpath(path).catch(() => null);
      if (target === null) {
        yield refused(path, PHOTO_REJECTIONS.file, 'a link to nothing');
        continue;
      }
      if (target !== root && !target.startsWith(root + sep)) {
        yield refused(path, PHOTO_REJECTIONS.file, 'a link out of the folder imported: not followed');
        continue;
      }
      const info = await stat(target);
      if (info.isDirectory()) {
        if (!seen.has(target)) {
          seen.add(target);
          yield* walkFolder(path, root, seen, budget);
        }
      } else yield entryFor(path, info.isFile());
    } else if (entry.isDirectory()) {
      const real = await realpath(path);
      if (seen.has(real)) continue;
      seen.add(real);
      yield* walkFolder(path, root, seen, budget);
    } else {
      yield entryFor(path, entry.isFile());
    }
  }
}

function entryFor(path: Buffer, isFile: boolean): WalkEntry {
  return isFile
    ? { file: { path, name: displayName(path) } }
    : refused(path, PHOTO_REJECTIONS.file, 'not a regular file');
}

function refused(path: Buffer, field: PhotoRejectionField, reason: string): WalkEntry {
  return { refused: { name: displayName(path), field, reason } };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A path's bytes as text: UTF-8 as it is, any other byte above 0x7f as \xNN. */
export function displayName(path: Buffer): string {
  try {
    return UTF8.decode(path);
  } catch {
    return [...path].map((b) => (b < 0x80 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
  }
}

/** Whether a path given on the command line is a photo import's: a folder, or a file that starts like a JPEG. */
export async function isPhotoInput(path: string, head: (path: string) => Promise<Buffer>): Promise<boolean> {
  const info = await lstat(path).catch(() => null);
  if (!info) return false;
  if (info.isDirectory() || (info.isSymbolicLink() && (await stat(path)).isDirectory())) return true;
  return isJpeg(await head(path));
}
