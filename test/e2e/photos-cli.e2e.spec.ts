import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrismaClient } from '@prisma/client';
import sharp from 'sharp';
import { cli, Run } from '../helpers/cli-tools';
import { cameraTags, jpegBytes, writeTagsOf } from '../helpers/photo-files';
import { BASE, GAZETTEER, insertPlaces, offset, resetPlaces } from '../helpers/places';
import { prismaClient, resetImagery } from '../helpers/test-app';

// `npm run import -- <folder>` as an operator runs it: killed at any point it leaves whole batches and
// whole files in the store, and the same command finishes the job; every refused file is in the report.
jest.setTimeout(240_000);

const PHOTOS = 160;
const BATCH = 50; // PHOTO_BATCH_SIZE

describe('the photo import command', () => {
  let prisma: PrismaClient;
  const root = mkdtempSync(join(tmpdir(), 'lis-photos-cli-'));
  const folder = join(root, 'drive');
  const store = join(root, 'store');
  const env = { ...process.env, IMAGE_STORE_DIR: store };
  const count = () => prisma.imagery.count({ where: { source: 'drive' } });
  const storedFiles = (sub: string) =>
    readdirSync(join(store, sub), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name));

  async function waitForRows(min: number, run: Run): Promise<void> {
    let exited = false;
    void run.done.then(() => (exited = true));
    while ((await count()) < min) {
      if (exited) throw new Error(`the import ended before ${min} records: ${(await run.done).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  beforeAll(async () => {
    prisma = prismaClient();
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    mkdirSync(folder);
    const files: Array<[string, ReturnType<typeof cameraTags>]> = [];
    for (let i = 0; i < PHOTOS; i++) {
      const path = join(folder, `${String(i).padStart(4, '0')}.jpg`);
      writeFileSync(path, await jpegBytes(480, 360));
      const [lon, lat] = offset(BASE, 0, i * 5);
      const s = 10 + i;
      const time = `2024:05:01 10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
      files.push([path, cameraTags({ lat, lon, time, offset: '+02:00', make: 'Drive', model: 'Cam' })]);
    }
    writeTagsOf(files);
    writeFileSync(join(folder, 'notes.txt'), 'not a photo');
  });

  afterAll(async () => {
    await prisma.$disconnect();
    rmSync(root, { recursive: true, force: true });
  });

  it('kill -9 mid-run leaves whole batches and whole files; the same command finishes the job', async () => {
    const args = [folder, '--source', 'drive', '--max-rejects', '1'];
    const first = cli('import', args, undefined, env);
    await waitForRows(BATCH, first);
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const survived = await count();
    expect(survived).toBeLessThan(PHOTOS);
    expect(survived % BATCH).toBe(0);
    expect(await prisma.$queryRaw`SELECT count(*)::int AS n FROM photos`).toEqual([{ n: survived }]);
    // Whatever the store holds in place is whole: every file decodes to its last row.
    for (const file of [...storedFiles('originals'), ...storedFiles('derivatives')]) {
      await expect(sharp(readFileSync(file), { failOn: 'truncated' }).raw().toBuffer()).resolves.toBeInstanceOf(Buffer);
    }

    const second = await cli('import', [...args, '--report', join(root, 'report.ndjson')], undefined, env).done;
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      new RegExp(`inserted ${PHOTOS - survived}, updated 0, unchanged ${survived}, rejected 1`),
    );
    expect(await count()).toBe(PHOTOS);
    expect(storedFiles('originals')).toHaveLength(PHOTOS);
    expect(storedFiles('derivatives')).toHaveLength(3 * PHOTOS);
    expect(
      readFileSync(join(root, 'report.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ file: join(folder, 'notes.txt'), field: 'type', reason: 'not a JPEG (unknown content)' }]);
  });

  it('a dry run prints the sequences it would make and writes nothing; a refusal over --max-rejects exits 1', async () => {
    const dry = await cli('import', [folder, '--dry-run'], undefined, { ...env, IMAGE_STORE_DIR: join(root, 'none') })
      .done;
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(
      new RegExp(`sequence [0-9a-f-]{36}: ${PHOTOS} photos, Drive Cam, 2024-05-01T10:00:10\\+02:00 to `),
    );
    expect(dry.stderr).toContain('notes.txt: type not a JPEG');
    expect(dry.stdout.trim()).toBe(
      `${PHOTOS + 1} files, 1 refused, 1 sequences of ${PHOTOS} photos; dry run, nothing written`,
    );
    expect(() => readdirSync(join(root, 'none'))).toThrow();
  });
});
