import { closeSync, openSync, readSync } from 'node:fs';
import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { GpxTrack, TrackError } from '../photos/metadata/gpx-track';
import { PhotoImportService, PhotoImportSummary } from '../photos/import/photo-import.service';
import { DEFAULT_SEQUENCE_RULES } from '../photos/import/photo-sequences';
import { FileImageStore } from '../photos/store/file-image-store';
import { UsageError } from './cli-context';
import { formatSummary, ImportProgress } from './import-progress';
import { integerOption, listsNotRefreshedNote, RejectionLog } from './import-command';
import { ImportSignals } from './import-interruption';
import { RejectionReport } from './rejection-report';
import { toolLog } from '../logging/cli-logger';

// `npm run import -- <folder or photos>`: the photo import's options, its run with progress, Ctrl-C
// and the rejection report, and what it prints (the sequences, the refusals, the summary).

export const PHOTO_USAGE = `usage: npm run import -- <folder|photo.jpg>... [options]
  <folder>               every JPEG under it (recognised by content), recursively; links out of it are not followed
  --track <file.gpx>     place photos without GPS tags by their capture time on this GPX track
  --time-offset <s>      seconds added to every photo's capture time (a camera clock that is off; may be negative)
  --cut-distance <m>     start a new sequence where two photos are further apart (default ${DEFAULT_SEQUENCE_RULES.cutDistanceM})
  --cut-time <s>         start a new sequence where two photos are further apart in time (default ${DEFAULT_SEQUENCE_RULES.cutTimeS})
  --source <name>        tag the records with where they came from
  --report <file>        write every refused file as NDJSON ({"file", "field", "reason"})
  --max-rejects <n>      refused files tolerated for exit code 0 (default 0)
  --dry-run              print the sequences it would make and every refusal; write nothing
exit codes: 0 done, 1 more refusals than --max-rejects, 2 usage, 130 interrupted`;

export const PHOTO_OPTIONS = {
  track: { type: 'string' },
  'time-offset': { type: 'string' },
  'cut-distance': { type: 'string' },
  'cut-time': { type: 'string' },
} as const;

/** Whether the command line names photos: a folder, or a file that starts like a JPEG. */
export function namesPhotos(paths: readonly string[]): boolean {
  return paths.some((path) => {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return false;
    }
    try {
      const head = Buffer.alloc(3);
      return readSync(fd, head, 0, 3, 0) === 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EISDIR';
    } finally {
      closeSync(fd);
    }
  });
}

export interface PhotoCommand {
  roots: string[];
  track?: string;
  timeOffsetS: number;
  cutDistanceM: number;
  cutTimeS: number;
  source?: string;
  report?: string;
  maxRejects: number;
  dryRun: boolean;
}

export function photoCommand(
  roots: string[],
  values: Partial<Record<keyof typeof PHOTO_OPTIONS, string>>,
  common: { source?: string; report?: string; maxRejects: number; dryRun: boolean },
): PhotoCommand {
  const offset = values['time-offset'];
  if (offset !== undefined && !/^-?\d+(\.\d+)?$/.test(offset))
    throw new UsageError('--time-offset must be a number of seconds');
  return {
    roots,
    track: values.track,
    timeOffsetS: offset === undefined ? 0 : Number(offset),
    cutDistanceM:
      values['cut-distance'] === undefined
        ? DEFAULT_SEQUENCE_RULES.cutDistanceM
        : integerOption('--cut-distance', values['cut-distance'], 1, 100_000),
    cutTimeS:
      values['cut-time'] === undefined
        ? DEFAULT_SEQUENCE_RULES.cutTimeS
        : integerOption('--cut-time', values['cut-time'], 1, 86_400),
    ...common,
  };
}

export async function runPhotoImport(
  ctx: INestApplicationContext,
  c: PhotoCommand,
  config: AppConfig,
): Promise<number> {
  let track: GpxTrack | undefined;
  try {
    track = c.track === undefined ? undefined : await GpxTrack.read(c.track);
  } catch (error) {
    if (error instanceof TrackError || (error as NodeJS.ErrnoException).code)
      throw new UsageError(`--track: ${(error as Error).message}`);
    throw error;
  }
  const store = c.dryRun
    ? FileImageStore.reader(config.imageStoreDir)
    : await FileImageStore.open(config.imageStoreDir);
  const report = c.report ? await RejectionReport.open(c.report) : undefined;
  let done = 0;
  let total = 0;
  // Progress in photos stored of those to store (known once every file is read).
  const progress = new ImportProgress({
    get totalBytes() {
      return total || undefined;
    },
    bytesRead: () => done,
  });
  const signals = new ImportSignals(progress);
  const refusals = new RejectionLog(progress, 'file', report);
  const started = Date.now();
  let summary: PhotoImportSummary;
  try {
    summary = await ctx.get(PhotoImportService).importPhotos({
      roots: c.roots,
      store,
      track,
      timeOffsetS: c.timeOffsetS,
      rules: { ...DEFAULT_SEQUENCE_RULES, cutDistanceM: c.cutDistanceM, cutTimeS: c.cutTimeS },
      source: c.source ?? null,
      dryRun: c.dryRun,
      signal: signals.signal,
      onRefused: (r) => refusals.add({ position: r.file, field: r.field, reason: r.reason }),
      onProgress: (p) => {
        done = p.stored;
        total = p.toStore;
        progress.update({ read: p.summary?.read ?? p.files });
      },
    });
  } finally {
    progress.stop();
    await report?.close();
    signals.dispose();
  }

  const more = refusals.more(summary.refused, c.report);
  if (more) toolLog.warn(more);
  for (const s of summary.sequences) {
    const camera = [s.camera.make, s.camera.model].filter(Boolean).join(' ') || 'unknown camera';
    toolLog.log(`sequence ${s.id}: ${s.photos} photo${s.photos === 1 ? '' : 's'}, ${camera}, ${s.from} to ${s.to}`);
  }
  const r = summary.records;
  if (r?.listsNotRefreshed) toolLog.warn(listsNotRefreshedNote(r.listsNotRefreshed));
  const interrupted = signals.signal.aborted || r?.outcome === 'interrupted';
  if (interrupted) toolLog.warn('interrupted: every batch written is complete; run the same command again to finish');
  const photos = summary.sequences.reduce((n, s) => n + s.photos, 0);
  const head = `${summary.files} files, ${summary.refused} refused, ${summary.sequences.length} sequences`;
  if (!r) console.log(`${head} of ${photos} photos; ${c.dryRun ? 'dry run, ' : ''}nothing written`);
  else {
    const { deleted: _, ...written } = r;
    const counts = { ...written, rejected: summary.refused, elapsedMs: Date.now() - started };
    console.log(`${head}; ${formatSummary(counts)}`);
  }
  if (interrupted) return signals.exitCode;
  return summary.refused > c.maxRejects ? 1 : 0;
}
