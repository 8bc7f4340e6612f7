import { Injectable } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { HEADING_ORIGINS, POSITION_ORIGINS, PROJECTIONS } from '../imagery/photo-details/photo-details';
import { PhotoIncludeRow, PhotosRepository } from './photos.repository';
import { panoramaGeometryOf } from './serving/view-source';

// What the `camera`, `captured_at` and `sequence` includes add to the records of a page made from
// photos: one read of the page's ids in the photos table for the first two, one for the third, each only
// when asked for.

export class CameraSequenceDto {
  @ApiProperty({
    format: 'uuid',
    maxLength: 36,
    description: 'The sequence: one camera, in capture order, cut at gaps',
  })
  id: string;

  @ApiProperty({ minimum: 0, description: "The photo's place in it (0 first)" })
  index: number;
}

export class CameraPanoramaDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "GPano's PoseHeadingDegrees: the compass heading the image's centre column faces (the record's `heading` may be another: GPSImgDirection, the direction of travel); null when the photo gives none (its centre column faces the record's heading)",
    example: 200,
  })
  pose_heading: number | null;

  @ApiProperty({ minimum: 1, description: 'The whole sphere in pixels of the stored image', example: 5760 })
  full_width: number;

  @ApiProperty({ minimum: 1, example: 2880 })
  full_height: number;

  @ApiProperty({
    minimum: 0,
    description:
      "Where the stored image lies in the whole sphere: a panorama that is not whole (most phones' photo spheres) covers only this part",
    example: 0,
  })
  cropped_left: number;

  @ApiProperty({ minimum: 0, example: 0 })
  cropped_top: number;

  @ApiProperty({ minimum: 1, example: 5760 })
  cropped_width: number;

  @ApiProperty({ minimum: 1, example: 2880 })
  cropped_height: number;
}

export class CameraDto {
  @ApiProperty({ type: String, nullable: true, example: 'SONY' })
  make: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'HDR-AS300' })
  model: string | null;

  @ApiProperty({ minimum: 1, description: 'Pixels as stored', example: 3840 })
  width: number;

  @ApiProperty({ minimum: 1, example: 2160 })
  height: number;

  @ApiProperty({ enum: PROJECTIONS, description: '`equirectangular`: a 360 image' })
  projection: (typeof PROJECTIONS)[number];

  @ApiProperty({ type: Number, nullable: true, description: 'Metres above sea level (GPS)', example: 70.3 })
  altitude: number | null;

  @ApiProperty({
    enum: HEADING_ORIGINS,
    description:
      "Where the heading came from: `exif` (GPSImgDirection, or a panorama's pose heading), `track` (the direction of travel: GPSTrack, or the GPX track), `sequence` (the bearing to the next photo), `none` (none known: the record faces nothing, its heading is null and its compass a placeholder)",
  })
  heading_origin: (typeof HEADING_ORIGINS)[number];

  @ApiProperty({
    type: String,
    enum: ['true', 'magnetic'],
    nullable: true,
    description: 'North the heading is measured from',
  })
  heading_reference: 'true' | 'magnetic' | null;

  @ApiProperty({
    enum: POSITION_ORIGINS,
    description: "`exif`: the photo's GPS tags; `track`: a GPX track at its time",
  })
  position_origin: (typeof POSITION_ORIGINS)[number];

  @ApiProperty({
    type: () => CameraPanoramaDto,
    nullable: true,
    description: "A 360 image's geometry (GPano), for a viewer that shows it: null for a flat photo",
  })
  panorama: CameraPanoramaDto | null;

  @ApiPropertyOptional({ type: () => CameraSequenceDto })
  sequence: CameraSequenceDto;
}

export class SequencePlaceDto extends CameraSequenceDto {
  @ApiProperty({
    type: String,
    format: 'uuid',
    maxLength: 36,
    nullable: true,
    description: 'The record of the photo taken before it in the sequence; null for its first',
  })
  previous: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    maxLength: 36,
    nullable: true,
    description: 'The record of the photo taken after it in the sequence; null for its last',
  })
  next: string | null;
}

function panoramaOf(photo: PhotoIncludeRow): CameraPanoramaDto {
  const g = panoramaGeometryOf(photo);
  return {
    pose_heading: g.poseHeading ?? null,
    full_width: g.fullWidth,
    full_height: g.fullHeight,
    cropped_left: g.croppedLeft,
    cropped_top: g.croppedTop,
    cropped_width: g.croppedWidth,
    cropped_height: g.croppedHeight,
  };
}

interface IncludingRecord {
  id: string;
  captured_at?: string;
  camera?: CameraDto | null;
  sequence?: SequencePlaceDto | null;
}

export interface PhotoIncludeNames {
  camera: boolean;
  capturedAt: boolean;
  sequence: boolean;
}

@Injectable()
export class PhotoIncludes {
  constructor(private readonly photos: PhotosRepository) {}

  /** Sets `camera` (null for a record not made from a photo) and the photo's instant as `captured_at`. */
  async attach(records: IncludingRecord[], include: PhotoIncludeNames): Promise<void> {
    if (include.sequence) await this.attachSequences(records);
    if (records.length === 0 || (!include.camera && !include.capturedAt)) return;
    const rows = new Map((await this.photos.findIncluded(records.map((r) => r.id))).map((r) => [r.id, r]));
    for (const record of records) {
      const p = rows.get(record.id);
      if (include.capturedAt && p) record.captured_at = p.capturedTime;
      if (!include.camera) continue;
      record.camera = p
        ? {
            make: p.make,
            model: p.model,
            width: p.width,
            height: p.height,
            projection: p.projection,
            altitude: p.altitude,
            heading_origin: p.headingOrigin,
            heading_reference: p.headingReference,
            position_origin: p.positionOrigin,
            panorama: p.projection === 'equirectangular' ? panoramaOf(p) : null,
            sequence: { id: p.sequenceId, index: p.sequenceIndex },
          }
        : null;
    }
  }

  /** Sets `sequence` (null for a record not made from a photo): its place and its neighbours. */
  private async attachSequences(records: IncludingRecord[]): Promise<void> {
    if (records.length === 0) return;
    const rows = new Map((await this.photos.findSequencePlaces(records.map((r) => r.id))).map((r) => [r.id, r]));
    for (const record of records) {
      const p = rows.get(record.id);
      record.sequence = p ? { id: p.sequenceId, index: p.sequenceIndex, previous: p.previous, next: p.next } : null;
    }
  }
}
