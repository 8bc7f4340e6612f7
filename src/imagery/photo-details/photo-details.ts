// What the catalogue keeps of a photo beside its imagery record (the photos table, one row per record
// of the same id): written in the record's import batch, read by the image URLs and the `camera` and
// `captured_at` includes, exported and re-imported with the record (its `photo` property).

export const PROJECTIONS = ['equirectangular', 'perspective'] as const;
export type Projection = (typeof PROJECTIONS)[number];
/** Text read from a camera's metadata (make, model, serial) is cut to this many characters. */
export const MAX_METADATA_TEXT = 200;

/** A panorama's GPano geometry: the full sphere's size, and the part of it the image covers. */
export interface PanoramaGeometry {
  fullWidth: number;
  fullHeight: number;
  croppedWidth: number;
  croppedHeight: number;
  croppedLeft: number;
  croppedTop: number;
  /** GPano:PoseHeadingDegrees: the compass heading of the panorama's centre column. */
  poseHeading?: number;
}

export const HEADING_ORIGINS = ['exif', 'track', 'sequence', 'none'] as const;
export type HeadingOrigin = (typeof HEADING_ORIGINS)[number];
export const POSITION_ORIGINS = ['exif', 'track'] as const;
export const OFFSET_ORIGINS = ['exif', 'position'] as const;
export interface PhotoDetails {
  contentHash: string;
  bytes: number;
  /** The capture instant in ISO 8601 with its offset. */
  capturedTime: string;
  timeZone: string | null;
  offsetOrigin: (typeof OFFSET_ORIGINS)[number];
  make: string | null;
  model: string | null;
  width: number;
  height: number;
  orientation: number | null;
  projection: Projection;
  panorama: PanoramaGeometry | null;
  altitude: number | null;
  horizontalAccuracy: number | null;
  headingOrigin: HeadingOrigin;
  headingReference: 'true' | 'magnetic' | null;
  positionOrigin: (typeof POSITION_ORIGINS)[number];
  sequenceId: string;
  sequenceIndex: number;
}

// The photos table's columns, in the order of PhotoDetails' fields (the batch's jsonb keys are these).
export const PHOTO_COLUMNS: ReadonlyArray<readonly [column: string, type: string, field: keyof PhotoDetails]> = [
  ['content_hash', 'text', 'contentHash'],
  ['bytes', 'bigint', 'bytes'],
  ['captured_time', 'text', 'capturedTime'],
  ['time_zone', 'text', 'timeZone'],
  ['offset_origin', 'text', 'offsetOrigin'],
  ['make', 'text', 'make'],
  ['model', 'text', 'model'],
  ['width', 'int', 'width'],
  ['height', 'int', 'height'],
  ['orientation', 'smallint', 'orientation'],
  ['projection', 'text', 'projection'],
  ['panorama', 'jsonb', 'panorama'],
  ['altitude', 'float8', 'altitude'],
  ['horizontal_accuracy', 'float8', 'horizontalAccuracy'],
  ['heading_origin', 'text', 'headingOrigin'],
  ['heading_reference', 'text', 'headingReference'],
  ['position_origin', 'text', 'positionOrigin'],
  ['sequence_id', 'uuid', 'sequenceId'],
  ['sequence_index', 'int', 'sequenceIndex'],
];

/** A photos row (alias `p`) as the PhotoDetails object an export writes; NULL where the join found none. */
export function photoObjectSql(p: string): string {
  return `CASE WHEN ${p}.id IS NULL THEN NULL ELSE jsonb_build_object(${PHOTO_COLUMNS.map(([c, , f]) => `'${f}', ${p}.${c}`).join(', ')}) END`;
}

/** A batch's photos as the jsonb array upsertPhotosSql reads (keys: the column names). */
export function photosParameter(rows: ReadonlyArray<{ id: string; photo?: PhotoDetails }>): string {
  return JSON.stringify(
    rows.flatMap(({ id, photo }) =>
      photo ? [Object.fromEntries([['id', id], ...PHOTO_COLUMNS.map(([c, , f]) => [c, photo[f]])])] : [],
    ),
  );
}

/**
 * Upserts a batch's photos ($1: photosParameter) for the records the batch kept (`kept`: a table of their
 * ids, the staging table once unrecoverable records are gone); unchanged rows are not written.
 */
export function upsertPhotosSql(kept: string): string {
  const columns = PHOTO_COLUMNS.map(([c]) => c);
  return `
    INSERT INTO photos AS p (id, ${columns.join(', ')})
    SELECT x.id, ${columns.map((c) => `x.${c}`).join(', ')}
    FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, ${PHOTO_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
    WHERE x.id IN (SELECT k.id FROM ${kept} k)
    ON CONFLICT (id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
    WHERE (${columns.map((c) => `p.${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `EXCLUDED.${c}`).join(', ')})`;
}
