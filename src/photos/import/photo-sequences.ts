import { v5 as uuidv5 } from 'uuid';
import { bearingDeg, distanceM, turnDeg } from '../metadata/geodesy';

// Sequences (mapillary_tools' and Panoramax's rules): the photos of one camera in capture order, cut where
// two are further apart than the cut distance or the cut time, and at the longest length; a photo within
// the duplicate distance and angle of the last one kept is a duplicate of it. A photo without a direction
// of its own faces the next photo of its sequence (the last one: the way from the one before).

const SEQUENCE_NAMESPACE = '6c1f3f0e-2b7a-4a51-9a43-1d7f0c5e8b20';

export interface SequenceRules {
  /** Metres between two consecutive photos above which a new sequence starts. */
  cutDistanceM: number;
  /** Seconds between two consecutive photos above which a new sequence starts. */
  cutTimeS: number;
  /** Photos in one sequence at most. */
  maxLength: number;
  /** A photo this close to the last one kept (and turned less than duplicateAngleDeg) is a duplicate. */
  duplicateDistanceM: number;
  duplicateAngleDeg: number;
}

export const DEFAULT_SEQUENCE_RULES: SequenceRules = {
  cutDistanceM: 100,
  cutTimeS: 60,
  maxLength: 1000,
  duplicateDistanceM: 1,
  duplicateAngleDeg: 5,
};

export interface SequencedPhoto {
  /** The content hash: it names the sequence with the camera. */
  hash: string;
  /** make, model and serial: photos of different cameras are never in one sequence. */
  camera: string;
  epochMs: number;
  lat: number;
  lon: number;
  /** The photo's own direction, when it has one. */
  heading?: number;
}

export interface Sequence<T> {
  id: string;
  photos: Array<{ photo: T; index: number; heading?: { degrees: number; fromSequence: boolean } }>;
}

export interface Sequencing<T> {
  sequences: Array<Sequence<T>>;
  duplicates: Array<{ photo: T; of: T }>;
}

export function makeSequences<T extends SequencedPhoto>(
  photos: readonly T[],
  rules = DEFAULT_SEQUENCE_RULES,
): Sequencing<T> {
  const byCamera = new Map<string, T[]>();
  for (const p of photos) {
    const list = byCamera.get(p.camera);
    if (list) list.push(p);
    else byCamera.set(p.camera, [p]);
  }
  const sequences: Array<Sequence<T>> = [];
  const duplicates: Array<{ photo: T; of: T }> = [];

  for (const [camera, taken] of [...byCamera].sort(([a], [b]) => a.localeCompare(b))) {
    taken.sort((a, b) => a.epochMs - b.epochMs || a.hash.localeCompare(b.hash));
    let current: T[] = [];
    const close = () => {
      if (current.length > 0) sequences.push(sequenceOf(camera, current));
      current = [];
    };
    for (const p of taken) {
      const last = current[current.length - 1];
      if (last && isDuplicate(p, last, rules)) {
        duplicates.push({ photo: p, of: last });
        continue;
      }
      if (
        last &&
        (p.epochMs - last.epochMs > rules.cutTimeS * 1000 ||
          distanceM(last, p) > rules.cutDistanceM ||
          current.length >= rules.maxLength)
      ) {
        close();
      }
      current.push(p);
    }
    close();
  }
  return { sequences, duplicates };
}

function isDuplicate(p: SequencedPhoto, last: SequencedPhoto, rules: SequenceRules): boolean {
  if (distanceM(last, p) > rules.duplicateDistanceM) return false;
  if (p.heading === undefined || last.heading === undefined) return true;
  return turnDeg(p.heading, last.heading) <= rules.duplicateAngleDeg;
}

function sequenceOf<T extends SequencedPhoto>(camera: string, photos: T[]): Sequence<T> {
  return {
    id: uuidv5(JSON.stringify([camera, photos[0].hash]), SEQUENCE_NAMESPACE),
    photos: photos.map((photo, index) => {
      if (photo.heading !== undefined)
        return { photo, index, heading: { degrees: photo.heading, fromSequence: false } };
      if (photos.length < 2) return { photo, index };
      const [from, to] = index < photos.length - 1 ? [photo, photos[index + 1]] : [photos[index - 1], photo];
      return { photo, index, heading: { degrees: bearingDeg(from, to), fromSequence: true } };
    }),
  };
}
