import { Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { GenerateSql, SAMPLE_UUID, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';
import type { PhotoDetails } from '../imagery/photo-details/photo-details';

// The photos table as the request path reads it: what an image URL serves (and a view is rendered from), and what the `camera`,
// `captured_at` and `sequence` includes add to a page of records. Both by primary key (photos_pkey), on the request
// path's pool, and only for ids whose imagery record exists (a record deleted takes its images with it).

export type StoredPhoto = Pick<PhotoDetails, 'contentHash'>;
/** What a rendered view needs of a photo: its geometry, and the heading of its record. */
export type ViewablePhoto = Pick<
  PhotoDetails,
  'contentHash' | 'projection' | 'panorama' | 'width' | 'height' | 'orientation' | 'headingOrigin'
> & { heading: number };
export type PhotoIncludeRow = { id: string } & Pick<
  PhotoDetails,
  | 'capturedTime'
  | 'make'
  | 'model'
  | 'width'
  | 'height'
  | 'orientation'
  | 'projection'
  | 'panorama'
  | 'altitude'
  | 'headingOrigin'
  | 'headingReference'
  | 'positionOrigin'
  | 'sequenceId'
  | 'sequenceIndex'
>;

/** A photo's place in its sequence: the photos before and after it in capture order (null at its ends). */
export interface SequencePlaceRow {
  id: string;
  sequenceId: string;
  sequenceIndex: number;
  previous: string | null;
  next: string | null;
}

@SqlSubject((db) => new PhotosRepository(db.prisma))
@Injectable()
export class PhotosRepository {
  constructor(private readonly prisma: PrismaService) {}

  @GenerateSql({ params: () => [SAMPLE_UUID] })
  async findStored(id: string): Promise<StoredPhoto | null> {
    const [row] = await this.prisma.rawQuery<StoredPhoto>(Prisma.sql`
      SELECT p.content_hash AS "contentHash" FROM photos p
      WHERE p.id = ${id}::uuid AND EXISTS (SELECT 1 FROM imagery i WHERE i.id = ${id}::uuid)`);
    return row ?? null;
  }

  @GenerateSql({ params: () => [SAMPLE_UUID] })
  async findViewable(id: string): Promise<ViewablePhoto | null> {
    // The record's heading by id (a subquery, as imagery may be distributed), and whether the record is
    // there at all; a photo without a direction (heading NULL) is rendered as if it faced north, the
    // placeholder its compass says.
    const [row] = await this.prisma.rawQuery<
      Omit<ViewablePhoto, 'heading'> & { heading: number | null; present: boolean }
    >(Prisma.sql`
      SELECT p.content_hash AS "contentHash", p.projection, p.panorama, p.width, p.height, p.orientation,
             p.heading_origin AS "headingOrigin",
             EXISTS (SELECT 1 FROM imagery i WHERE i.id = ${id}::uuid) AS present,
             (SELECT i.heading FROM imagery i WHERE i.id = ${id}::uuid) AS heading
      FROM photos p
      WHERE p.id = ${id}::uuid`);
    if (!row?.present) return null;
    const { present: _, ...photo } = row;
    return { ...photo, heading: photo.heading ?? 0 };
  }

  @GenerateSql({ params: () => [[SAMPLE_UUID]] })
  findIncluded(ids: readonly string[]): Promise<PhotoIncludeRow[]> {
    return this.prisma.rawQuery<PhotoIncludeRow>(PhotosRepository.includedSql(ids));
  }

  @GenerateSql({ params: () => [[SAMPLE_UUID]] })
  findSequencePlaces(ids: readonly string[]): Promise<SequencePlaceRow[]> {
    return this.prisma.rawQuery<SequencePlaceRow>(PhotosRepository.sequencePlacesSql(ids));
  }

  /** A page's photos by primary key (photos_pkey). */
  static includedSql(ids: readonly string[]): Prisma.Sql {
    return Prisma.sql`
      SELECT p.id::text AS id, p.captured_time AS "capturedTime", p.make, p.model, p.width, p.height, p.orientation,
             p.projection, p.panorama, p.altitude, p.heading_origin AS "headingOrigin", p.heading_reference AS "headingReference",
             p.position_origin AS "positionOrigin", p.sequence_id::text AS "sequenceId", p.sequence_index AS "sequenceIndex"
      FROM photos p WHERE p.id = ANY(${ids as string[]}::uuid[])`;
  }

  // A page's photos by primary key, and each one's neighbours by sequence_index, each one row of
  // photos_sequence_idx (sequence_id, sequence_index): the nearest index below and above, so a photo
  // refused mid-sequence leaves no hole in the chain.
  static sequencePlacesSql(ids: readonly string[]): Prisma.Sql {
    return Prisma.sql`
      SELECT p.id::text AS id, p.sequence_id::text AS "sequenceId", p.sequence_index AS "sequenceIndex",
             (SELECT q.id::text FROM photos q
              WHERE q.sequence_id = p.sequence_id AND q.sequence_index < p.sequence_index
              ORDER BY q.sequence_index DESC LIMIT 1) AS previous,
             (SELECT q.id::text FROM photos q
              WHERE q.sequence_id = p.sequence_id AND q.sequence_index > p.sequence_index
              ORDER BY q.sequence_index ASC LIMIT 1) AS next
      FROM photos p WHERE p.id = ANY(${ids as string[]}::uuid[])`;
  }
}
