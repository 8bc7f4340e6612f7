import { randomUUID } from 'node:crypto';
import { PhotoDetails } from '../../src/imagery/photo-details/photo-details';

let hashes = 0;
// A valid `photo` property of an import record (the photos table's row), each with its own content hash.
export function photoDetails(overrides: Partial<PhotoDetails> = {}): PhotoDetails {
  hashes++;
  return {
    contentHash: hashes.toString(16).padStart(64, '0'),
    bytes: 1000,
    capturedTime: '2024-05-01T10:00:00+02:00',
    timeZone: 'Europe/Vaduz',
    offsetOrigin: 'exif',
    make: 'TestCam',
    model: 'One',
    width: 1600,
    height: 1200,
    orientation: null,
    projection: 'perspective',
    panorama: null,
    altitude: null,
    horizontalAccuracy: null,
    headingOrigin: 'exif',
    headingReference: 'true',
    positionOrigin: 'exif',
    sequenceId: randomUUID(),
    sequenceIndex: 0,
    ...overrides,
  };
}
