import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, TestingModule } from '@nestjs/testing';
import exifr from 'exifr';
import sharp from 'sharp';
import { DatabaseModule } from '../../src/database/database.module';
import { readFeatures } from '../../src/imagery/formats/imagery-feature.reader';
import { ImageryExportService } from '../../src/imagery/imagery-export.service';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { openInput } from '../../src/import-formats/import-input';
import { PhotoImportOptions, PhotoImportService, PhotoRefusal } from '../../src/photos/import/photo-import.service';
import { photoId } from '../../src/photos/import/photo-record';
import { contentHash } from '../../src/photos/import/photo-scan';
import { PhotosModule } from '../../src/photos/photos.module';
import { FileImageStore } from '../../src/photos/store/file-image-store';
import { GpxTrack } from '../../src/photos/metadata/gpx-track';
import { absurdEntryCount, bombJpeg, cameraTags, jpegBytes, Tags, writeTagsOf } from '../helpers/photo-files';
import { GAZETTEER, BASE, insertPlaces, offset, resetPlaces } from '../helpers/places';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';

// The photo import on a real database and real files: each tag variant read as exiftool wrote it, the
// sequences and duplicates, the store and its derivatives, every hostile file refused with its reason.

const [lon, lat] = BASE;
const near = (east: number, north: number) => {
  const [x, y] = offset(BASE, east, north);
  return { lon: x, lat: y };
};

describe('importing photos', () => {
  let moduleRef: TestingModule;
  let service: PhotoImportService;
  const prisma = prismaClient();
  const root = mkdtempSync(join(tmpdir(), 'lis-photos-'));
  const storeDir = join(root, 'store');
  const folder = join(root, 'camera');
  let store: FileImageStore;

  const run = async (o: Partial<PhotoImportOptions> = {}) => {
    const refused: PhotoRefusal[] = [];
    const summary = await service.importPhotos({
      roots: [folder],
      store,
      source: 'photos-test',
      onRefused: (r) => void refused.push(r),
      ...o,
    });
    return { summary, refused, reasons: new Map(refused.map((r) => [r.file.slice(folder.length + 1), r])) };
  };
  const photoRows = () =>
    prisma.$queryRaw<Array<Record<string, unknown>>>`
      SELECT i.id::text, i.address, i.heading, i.interactive, i.image_url, to_char(i.captured_at, 'YYYY-MM-DD') AS date,
             ST_X(i.location) AS lon, ST_Y(i.location) AS lat, p.*
      FROM imagery i JOIN photos p USING (id) ORDER BY p.captured_time`;
  const byHash = async (file: string) => {
    const rows = await photoRows();
    const id = photoId(contentHash(readFileSync(join(folder, file))));
    return rows.find((r) => r.id === id);
  };

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), PhotosModule],
    }).compile();
    await moduleRef.init();
    service = moduleRef.get(PhotoImportService);
    store = await FileImageStore.open(storeDir);
    mkdirSync(folder);

    // Each photo drawn first, then every tag written by one exiftool run.
    const photos: Array<[string, Tags, { width: number; height: number } | undefined]> = [];
    const p = (name: string, tags: Parameters<typeof cameraTags>[0], size?: { width: number; height: number }) =>
      photos.push([join(folder, name), cameraTags({ make: 'TestCam', model: 'One', serial: 'A1', ...tags }), size]);
    const also = (name: string, tags: Tags) =>
      Object.assign(photos.find(([path]) => path === join(folder, name))![1], tags);
    // One drive: a -> b -> (c duplicates b) ; then d 200 m on (a new sequence).
    p(
      'a.jpg',
      { ...near(0, 0), time: '2024:05:01 10:00:00', subSec: '25', offset: '+02:00', direction: 90 },
      { width: 1600, height: 1200 },
    );
    p('b.jpg', { ...near(0, 20), time: '2024:05:01 10:00:05', offset: '+02:00' });
    p('c.jpg', { ...near(0, 20.5), time: '2024:05:01 10:00:06', offset: '+02:00' });
    p('d.jpg', { ...near(0, 220), time: '2024:05:01 10:00:15', offset: '+02:00', direction: 10, directionRef: 'M' });
    // No offset: the zone of Vaduz (CET, +01:00 in January); the direction of travel only.
    p('winter.jpg', { ...near(300, 0), time: '2024:01:15 09:30:00', track: 181.5, serial: 'B2' });
    // Southern and western hemisphere (S/W refs), a camera of its own.
    p('south.jpg', { lat: -33.45, lon: -70.66, time: '2023:03:01 12:00:00', make: 'Other', model: 'Cam' });
    // 360: GPano says so; a known 360 camera's 2:1 image without GPano; a cropped panorama.
    p(
      'pano.jpg',
      { ...near(600, 0), time: '2024:06:01 08:00:00', make: 'Any', model: 'Pano' },
      { width: 800, height: 400 },
    );
    also('pano.jpg', { 'XMP-GPano:ProjectionType': 'equirectangular', 'XMP-GPano:PoseHeadingDegrees': 45 });
    p(
      'theta.jpg',
      { ...near(900, 0), time: '2024:06:01 08:05:00', make: 'RICOH', model: 'RICOH THETA Z1' },
      { width: 800, height: 400 },
    );
    p(
      'cropped.jpg',
      { ...near(1200, 0), time: '2024:06:01 08:10:00', make: 'Any', model: 'Crop' },
      { width: 800, height: 200 },
    );
    also('cropped.jpg', {
      'XMP-GPano:ProjectionType': 'equirectangular',
      'XMP-GPano:FullPanoWidthPixels': 800,
      'XMP-GPano:FullPanoHeightPixels': 400,
      'XMP-GPano:CroppedAreaImageWidthPixels': 800,
      'XMP-GPano:CroppedAreaImageHeightPixels': 200,
      'XMP-GPano:CroppedAreaTopPixels': 100,
    });
    p('no-gps.jpg', { time: '2024:05:01 10:00:00' });
    p('no-time.jpg', { ...near(50, 50) });
    p('truncated.jpg', { ...near(60, 60), time: '2024:05:01 10:30:00' }, { width: 640, height: 480 });
    p('entries.jpg', { ...near(70, 70), time: '2024:05:01 11:00:00' });
    mkdirSync(join(folder, 'odd'));
    p('odd/newline.jpg', { ...near(1500, 0), time: '2024:05:02 10:00:00' });
    for (const [path, , size] of photos) writeFileSync(path, await jpegBytes(size?.width ?? 320, size?.height ?? 240));
    writeTagsOf(photos.map(([path, tags]) => [path, tags]));
    renameSync(join(folder, 'odd/newline.jpg'), join(folder, 'odd/new\nline.jpg'));
    writeFileSync(join(folder, 'entries.jpg'), absurdEntryCount(readFileSync(join(folder, 'entries.jpg'))));

    // What is refused.
    writeFileSync(join(folder, 'empty.jpg'), '');
    writeFileSync(
      join(folder, 'image.jpg'),
      await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
        .png()
        .toBuffer(),
    );
    const whole = readFileSync(join(folder, 'truncated.jpg'));
    writeFileSync(join(folder, 'truncated.jpg'), whole.subarray(0, Math.floor(whole.length / 2)));
    writeFileSync(join(folder, 'bomb.jpg'), await bombJpeg(65_000, 65_000));
    writeFileSync(join(root, 'outside.jpg'), await jpegBytes(32, 32));
    symlinkSync(join(root, 'outside.jpg'), join(folder, 'link-out.jpg'));
    writeFileSync(Buffer.from(join(folder, 'odd', 'latin-\xe9.jpg'), 'latin1'), await jpegBytes(32, 32));
    // The same content twice, under another name.
    writeFileSync(join(folder, 'odd', 'a-copy.jpg'), readFileSync(join(folder, 'a.jpg')));
  });

  afterAll(async () => {
    await moduleRef?.close();
    await prisma.$disconnect();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads every tag variant as exiftool wrote it, cuts sequences, skips duplicates, refuses with reasons', async () => {
    const { summary, reasons } = await run();
    expect(summary.records?.inserted).toBe(9);

    const a = (await byHash('a.jpg'))!;
    expect(a).toMatchObject({
      captured_time: '2024-05-01T10:00:00.250+02:00',
      date: '2024-05-01',
      offset_origin: 'exif',
      time_zone: 'Europe/Vaduz',
      heading: 90,
      heading_origin: 'exif',
      heading_reference: 'true',
      make: 'TestCam',
      width: 1600,
      height: 1200,
      projection: 'perspective',
      interactive: false,
      address: 'Städtle 1, 9490 Vaduz',
      image_url: `images/${a.id}/sd.jpg`,
      sequence_index: 0,
    });
    expect(a.lat as number).toBeCloseTo(lat, 6);
    expect(a.lon as number).toBeCloseTo(lon, 6);
    const b = (await byHash('b.jpg'))!;
    // b has no direction: the way from a (the one before it, b being its sequence's last) is north.
    expect(b).toMatchObject({ heading_origin: 'sequence', sequence_id: a.sequence_id, sequence_index: 1 });
    expect(Math.min(b.heading as number, 360 - (b.heading as number))).toBeLessThan(1);
    expect(reasons.get('c.jpg')).toMatchObject({ field: 'duplicate', reason: expect.stringContaining('b.jpg') });
    const d = (await byHash('d.jpg'))!;
    expect(d).toMatchObject({ heading: 10, heading_reference: 'magnetic', sequence_index: 0 });
    expect(d.sequence_id).not.toBe(a.sequence_id);

    expect(await byHash('winter.jpg')).toMatchObject({
      captured_time: '2024-01-15T09:30:00+01:00',
      offset_origin: 'position',
      heading: 181.5,
      heading_origin: 'track',
    });
    const south = (await byHash('south.jpg'))!;
    expect(south.lat as number).toBeCloseTo(-33.45, 6);
    expect(south.lon as number).toBeCloseTo(-70.66, 6);
    // No direction at all (no tags, alone in its sequence): no heading, facing nothing.
    expect(south).toMatchObject({ time_zone: 'America/Santiago', heading_origin: 'none', heading: null });

    expect(await byHash('pano.jpg')).toMatchObject({ interactive: true, projection: 'equirectangular', heading: 45 });
    expect(await byHash('theta.jpg')).toMatchObject({ interactive: true, projection: 'equirectangular' });
    expect(await byHash('cropped.jpg')).toMatchObject({
      interactive: true,
      panorama: expect.objectContaining({ fullHeight: 400, croppedHeight: 200, croppedTop: 100 }),
    });

    const refused = (file: string) => reasons.get(file);
    expect(refused('no-gps.jpg')).toMatchObject({ field: 'position', reason: expect.stringContaining('no GPS tags') });
    expect(refused('no-time.jpg')).toMatchObject({ field: 'captured_at' });
    expect(refused('empty.jpg')).toMatchObject({ field: 'type', reason: 'not a JPEG (an empty file)' });
    expect(refused('image.jpg')).toMatchObject({ field: 'type', reason: 'not a JPEG (a PNG image)' });
    expect(refused('truncated.jpg')).toMatchObject({ field: 'image', reason: expect.stringContaining('unreadable') });
    expect(refused('bomb.jpg')).toMatchObject({ field: 'size', reason: expect.stringContaining('65000 x 65000') });
    expect(refused('entries.jpg')?.field).toMatch(/^(metadata|position|captured_at)$/);
    expect(refused('link-out.jpg')).toMatchObject({ field: 'file', reason: expect.stringContaining('link out') });
    expect(refused('odd/a-copy.jpg') ?? refused('a.jpg')).toMatchObject({
      field: 'duplicate',
      reason: expect.stringContaining('same content'),
    });
    expect(await byHash('odd/new\nline.jpg')).toBeDefined();
    expect(refused('odd/latin-\\xe9.jpg')).toMatchObject({ field: 'position' });
    // Every file has an outcome: a record, or a refusal.
    expect(summary.files).toBe(9 + reasons.size);
  });

  it('stores each original and derivatives that are upright, never enlarged and free of every tag', async () => {
    const a = (await byHash('a.jpg'))!;
    const hash = a.content_hash as string;
    const sizes = { thumb: 256, sd: 1024, hd: 1600 };
    for (const [variant, long] of Object.entries(sizes)) {
      const bytes = readFileSync(store.path(hash, variant as 'sd'));
      const meta = await sharp(bytes).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(long);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(await exifr.parse(bytes, { gps: true, tiff: true, xmp: true }).catch(() => undefined)).toBeUndefined();
    }
    expect(readFileSync(store.path(hash, 'original')).equals(readFileSync(join(folder, 'a.jpg')))).toBe(true);
    expect(readdirSync(join(storeDir, 'tmp'))).toEqual([]);
  });

  it('changes nothing when the same folder is imported again, renamed or not', async () => {
    const before = await photoRows();
    const { summary } = await run();
    expect(summary.records).toMatchObject({ inserted: 0, updated: 0, unchanged: 9 });
    expect(await photoRows()).toEqual(before);
  });

  it('exports photo records with their details, and an import of that export restores them all', async () => {
    const before = await photoRows();
    const exported = join(root, 'export.ndjson');
    await moduleRef
      .get(ImageryExportService)
      .write(moduleRef.get(ImageryExportService).catalogue(), 'ndjson', createWriteStream(exported));
    const lines = readFileSync(exported, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const south = lines.find((f) => f.id === before.find((r) => r.heading_origin === 'none')!.id);
    expect(south.properties).toMatchObject({
      heading: null,
      photo: expect.objectContaining({ headingOrigin: 'none' }),
    });
    await resetImagery();
    await prisma.$executeRaw`DELETE FROM photos`;
    const summary = await moduleRef
      .get(ImageryImportService)
      .importFeatures(readFeatures((await openInput(exported)).stream, 'ndjson'), { source: null });
    expect(summary).toMatchObject({ inserted: 9, rejected: 0 });
    expect(await photoRows()).toEqual(before);
  });

  it('refuses each of a folder of 10,000 empty files as an empty file', async () => {
    const empties = join(root, 'empties');
    mkdirSync(empties);
    for (let i = 0; i < 10_000; i++) writeFileSync(join(empties, `${i}.jpg`), '');
    const { summary, refused } = await run({ roots: [empties] });
    expect(summary).toMatchObject({ files: 10_000, refused: 10_000, sequences: [] });
    expect(new Set(refused.map((r) => r.reason))).toEqual(new Set(['not a JPEG (an empty file)']));
  });

  it('places photos without GPS on a GPX track by their time, moved by the camera clock offset', async () => {
    const trackFolder = join(root, 'no-gps');
    mkdirSync(trackFolder);
    const point = (north: number, time: string) => {
      const p = near(0, north);
      return `<trkpt lat="${p.lat}" lon="${p.lon}"><ele>450</ele><time>${time}</time></trkpt>`;
    };
    const gpx = `<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>${[
      point(0, '2024-05-01T08:00:00Z'),
      point(100, '2024-05-01T08:00:10Z'),
      point(200, '2024-05-01T08:00:20Z'),
    ].join('')}</trkseg></trk></gpx>`;
    const files: Array<[string, Tags]> = [
      [
        join(trackFolder, 'on.jpg'),
        cameraTags({ time: '2024:05:01 10:00:35', offset: '+02:00', make: 'Old', model: 'Cam' }),
      ],
      [
        join(trackFolder, 'off.jpg'),
        cameraTags({ time: '2024:05:01 10:05:00', offset: '+02:00', make: 'Old', model: 'Cam' }),
      ],
    ];
    for (const [path] of files) writeFileSync(path, await jpegBytes(320, 240));
    writeTagsOf(files);

    const { reasons } = await run({ roots: [trackFolder], track: GpxTrack.parse(gpx), timeOffsetS: -30 });
    const rows = await photoRows();
    const on = rows.find((r) => r.id === photoId(contentHash(readFileSync(files[0][0]))))!;
    // 10:00:35 +02:00 less 30 s is 08:00:05Z: halfway between the first two points, heading north.
    expect(on).toMatchObject({
      captured_time: '2024-05-01T10:00:05+02:00',
      position_origin: 'track',
      heading_origin: 'track',
      altitude: 450,
    });
    expect(on.lat as number).toBeCloseTo(near(0, 50).lat, 6);
    expect(on.lon as number).toBeCloseTo(near(0, 50).lon, 6);
    expect(on.heading as number).toBeLessThan(0.5);
    expect([...reasons.values()].find((r) => r.file.endsWith('off.jpg'))).toMatchObject({
      field: 'track',
      reason: expect.stringContaining(
        "outside the track's time: taken 2024-05-01T08:04:30.000Z (with --time-offset -30 s)",
      ),
    });
  });

  it('writes nothing in a dry run, and says which sequences it would make', async () => {
    await resetImagery();
    await prisma.$executeRaw`DELETE FROM photos`;
    const { summary } = await run({ dryRun: true });
    expect(summary.records).toBeUndefined();
    // The pixels are not decoded in a dry run: truncated.jpg is in a sequence of its own here.
    expect(summary.sequences.map((s) => s.photos).sort()).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 2]);
    expect(await photoRows()).toEqual([]);
  });
});
