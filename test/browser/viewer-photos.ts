import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { importPhotoFolder } from '../helpers/photo-importer';
import { cameraTags, jpegBytes, Tags, writeTagsOf } from '../helpers/photo-files';
import { BASE, offset } from '../helpers/places';

// The photos the viewer's browser spec opens, imported into the image store at `store`, around Städtle 1
// (BASE) of the test gazetteer:
// - a 360 image 10 m from Städtle 1, which lies at heading 120 from it, where its red mark is: its centre
//   column faces its pose heading, 200 (blue there), its own heading is its direction of travel, 60, and
//   it covers a part of the sphere only (GPano's cropped area);
// - a drive of three flat photos 15 m apart eastwards, 40 m south of it, facing east;
// - at the middle one's spot, the same view five years earlier by another camera.

export const PLACE_HEADING = 120;
export const POSE_HEADING = 200;
/** The 360 image's own heading: its direction of travel (GPSTrack), not where its centre column faces. */
export const TRACK_HEADING = 60;
// The panorama is not the whole sphere (as most phones' photo spheres): GPano's cropped area of a
// 1440 x 720 sphere, off centre both ways, so that a viewer that stretches it to the whole sphere
// shows the mark away from where it is.
const FULL = { width: 1440, height: 720 };
const CROP = { left: 120, top: 90, width: 1200, height: 480 };

export interface ViewerPhoto {
  name: string;
  lon: number;
  lat: number;
  date: string;
  tags: Tags;
}

const street = (i: number) => offset(BASE, -15 + 15 * i, -40);
const drive = (i: number): ViewerPhoto => {
  const [lon, lat] = street(i);
  return {
    name: `drive-${i}`,
    lon,
    lat,
    date: 'May 1, 2024',
    tags: {
      ...cameraTags({ lat, lon, time: `2024:05:01 10:05:0${i}`, offset: '+02:00', direction: 90 }),
      ...{ Make: 'TestCam', Model: 'Street', SerialNumber: 'S1' },
    },
  };
};
const [panoLon, panoLat] = offset(
  BASE,
  -10 * Math.sin((PLACE_HEADING * Math.PI) / 180),
  -10 * Math.cos((PLACE_HEADING * Math.PI) / 180),
);
const [oldLon, oldLat] = offset(street(1), 0, 2);

export const PHOTOS: Record<'pano' | 'drive0' | 'drive1' | 'drive2' | 'old', ViewerPhoto> = {
  pano: {
    name: 'pano',
    lon: panoLon,
    lat: panoLat,
    date: 'May 1, 2024',
    tags: {
      ...cameraTags({ lat: panoLat, lon: panoLon, time: '2024:05:01 10:00:00', offset: '+02:00' }),
      ...{ Make: 'TestCam', Model: 'Sphere', 'XMP-GPano:ProjectionType': 'equirectangular' },
      'XMP-GPano:PoseHeadingDegrees': POSE_HEADING,
      ...{ GPSTrack: TRACK_HEADING, GPSTrackRef: 'T' },
      ...{ 'XMP-GPano:FullPanoWidthPixels': FULL.width, 'XMP-GPano:FullPanoHeightPixels': FULL.height },
      ...{ 'XMP-GPano:CroppedAreaLeftPixels': CROP.left, 'XMP-GPano:CroppedAreaTopPixels': CROP.top },
      ...{ 'XMP-GPano:CroppedAreaImageWidthPixels': CROP.width, 'XMP-GPano:CroppedAreaImageHeightPixels': CROP.height },
    },
  },
  drive0: drive(0),
  drive1: drive(1),
  drive2: drive(2),
  old: {
    name: 'old',
    lon: oldLon,
    lat: oldLat,
    date: 'June 15, 2019',
    tags: {
      ...cameraTags({ lat: oldLat, lon: oldLon, time: '2019:06:15 09:00:00', offset: '+02:00', direction: 95 }),
      ...{ Make: 'OldCam', Model: 'OldCam 2', SerialNumber: 'O1' },
    },
  },
};

/** Blue, with a red mark (12 degrees wide, pitch -10 to 10) at compass PLACE_HEADING, in the cropped area. */
async function markedPanorama(): Promise<Buffer> {
  const perDegree = FULL.width / 360;
  const x = Math.round(FULL.width * (0.5 + (PLACE_HEADING - POSE_HEADING) / 360)) - CROP.left;
  const y = FULL.height / 2 - CROP.top;
  const mark = { width: 12 * perDegree, height: 20 * perDegree };
  return sharp({ create: { width: CROP.width, height: CROP.height, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .composite([
      {
        input: { create: { ...mark, channels: 3, background: { r: 255, g: 0, b: 0 } } },
        left: x - mark.width / 2,
        top: y - mark.height / 2,
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

export async function importViewerPhotos(root: string, store: string): Promise<void> {
  const folder = join(root, 'camera');
  mkdirSync(folder, { recursive: true });
  for (const photo of Object.values(PHOTOS)) {
    const bytes = photo.name === 'pano' ? await markedPanorama() : await jpegBytes(640, 480);
    writeFileSync(join(folder, `${photo.name}.jpg`), bytes);
  }
  writeTagsOf(Object.values(PHOTOS).map((p) => [join(folder, `${p.name}.jpg`), p.tags] as const));
  const summary = await importPhotoFolder(folder, store);
  if (summary.refused > 0 || summary.records?.inserted !== Object.keys(PHOTOS).length)
    throw new Error(`the viewer's photos were not all imported: ${JSON.stringify(summary)}`);
}
