// Why a camera file was not imported: a named reason (the `field` of the rejection report) and its words.
export const PHOTO_REJECTIONS = {
  file: 'file',
  type: 'type',
  size: 'size',
  image: 'image',
  metadata: 'metadata',
  position: 'position',
  time: 'captured_at',
  track: 'track',
  duplicate: 'duplicate',
} as const;
export type PhotoRejectionField = (typeof PHOTO_REJECTIONS)[keyof typeof PHOTO_REJECTIONS];

export class PhotoRejection extends Error {
  constructor(
    readonly field: PhotoRejectionField,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export const refuse = (field: PhotoRejectionField, reason: string): never => {
  throw new PhotoRejection(field, reason);
};
