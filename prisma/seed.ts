import { ImageryImportService } from '../src/imagery/imagery-import.service';
import { runCli } from '../src/cli/cli-context';
import { DEMO_SOURCE, demoFeatures } from '../src/seed/demo-dataset';

// `npx prisma db seed`: idempotent demo data, loaded through the normal import path.
void runCli(async (ctx) => {
  const started = Date.now();
  const s = await ctx.get(ImageryImportService).importFeatures(demoFeatures(), { source: DEMO_SOURCE });
  console.log(
    `Demo seed: read ${s.read}, inserted ${s.inserted}, updated ${s.updated}, unchanged ${s.unchanged}, ` +
      `rejected ${s.rejected} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return s.rejected > 0 ? 1 : 0;
});
