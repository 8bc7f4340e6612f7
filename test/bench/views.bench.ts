// `npm run bench:views [-- --rounds N]`: rendered views (GET /images/{id}/view.jpg) in process, through
// ViewsService with a file image store and its disk cache (no HTTP, no database: the photo lookup is a
// stub). A 1024 x 768 view at fov 90 of a 5760 x 2880 panorama: first renders (each a new heading) of a
// panorama whose pixels are in memory (VIEW_PIXELS_MB), first renders of one that is not (a second
// service keeping no pixels: each render decodes the band of rows it needs), and cached ones (the same views again), at 1 and 16
// at once, beside the floor: sharp decoding that panorama at the scale the render uses, alone. Prints a
// Markdown table with the machine's load.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { AppConfig } from '../../src/config/app-config';
import type { PhotosRepository, ViewablePhoto } from '../../src/photos/photos.repository';
import { FileImageStore } from '../../src/photos/store/file-image-store';
import { makeDerivatives } from '../../src/photos/store/photo-derivatives';
import { decode, projectionOf, sourceFor } from '../../src/photos/serving/view-source';
import { ViewsService } from '../../src/photos/serving/views.service';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const ROUNDS = Number(values.rounds);
const WIDTH = 5760;
const HEIGHT = 2880;
const SIZE = { width: 1024, height: 768 };

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Runs `task(i)` for i < n with `parallel` at once; the latency of each and the throughput. */
async function measure(n: number, parallel: number, task: (i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), perSecond: n / seconds };
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'lis-bench-views-'));
  try {
    // A panorama with a camera photo's detail: smoothed noise, quality 90.
    const original = await sharp({
      create: {
        width: WIDTH,
        height: HEIGHT,
        channels: 3,
        background: { r: 90, g: 120, b: 150 },
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .blur(1.5)
      .jpeg({ quality: 90 })
      .toBuffer();
    const hash = 'a'.repeat(64);
    const store = await FileImageStore.open(join(root, 'store'));
    await store.put(hash, 'original', original);
    for (const [variant, bytes] of Object.entries(await makeDerivatives(original))) {
      await store.put(hash, variant as 'hd', bytes);
    }
    const photo: ViewablePhoto = {
      contentHash: hash,
      projection: 'equirectangular',
      panorama: null,
      width: WIDTH,
      height: HEIGHT,
      orientation: 1,
      headingOrigin: 'exif',
      heading: 0,
    };
    const repository = { findViewable: () => Promise.resolve(photo) } as unknown as PhotosRepository;
    const config = { imageStoreDir: store.root, viewCacheMb: 512, viewPixelsMb: 256 } as AppConfig;
    const views = new ViewsService(repository, store, config);
    const cold = new ViewsService(repository, store, { ...config, viewPixelsMb: 0 });
    const id = '00000000-0000-4000-8000-000000000001';
    const query = (i: number) => ({ heading: (i * 7.3) % 360, pitch: (i % 7) * 5 - 15, fov: 90, ...SIZE });
    const source = sourceFor(photo, projectionOf(photo, 0), { heading: 0, pitch: 0, fov: 90 }, SIZE);
    const sourceBytes = await buffer(store.read(hash, source.variant));

    // Warm-up (and the photo lookup cached): views at two pitches, so that the panorama's pixels are
    // kept whole (its first view keeps only the band of rows it needs).
    for (const i of [0, 6]) await views.prepare(id, query(i)).then((v) => v.bytes());
    const rows: string[][] = [];
    let offset = 7;
    for (const parallel of [1, 16]) {
      const floor = await measure(ROUNDS, parallel, () => decode(sourceBytes));
      const first = await measure(ROUNDS, parallel, (i) => views.prepare(id, query(offset + i)).then((v) => v.bytes()));
      const notDecoded = await measure(ROUNDS, parallel, (i) =>
        cold.prepare(id, query(offset + ROUNDS + i)).then((v) => v.bytes()),
      );
      const cached = await measure(ROUNDS, parallel, (i) =>
        views.prepare(id, query(offset + i)).then((v) => v.bytes()),
      );
      offset += 2 * ROUNDS;
      for (const [name, r] of [
        [`floor: decode ${source.variant} (${source.width} px wide)`, floor],
        ['first render, pixels in memory', first],
        ['first render, panorama not decoded', notDecoded],
        ['cached', cached],
      ] as const) {
        rows.push([name, String(parallel), r.p50.toFixed(1), r.p99.toFixed(1), r.perSecond.toFixed(1)]);
      }
    }
    console.log(
      `1024 x 768 view, fov 90, of a ${WIDTH} x ${HEIGHT} panorama (${(original.length / 1e6).toFixed(1)} MB); ${ROUNDS} views per row`,
    );
    console.log(
      `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (after)\n`,
    );
    console.log('| what | at once | p50 ms | p99 ms | per second |\n|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
