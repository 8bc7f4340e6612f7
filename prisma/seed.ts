import { ImageryImportService } from '../src/imagery/imagery-import.service';
import { runCli } from '../src/cli/cli-context';
import { formatSummary } from '../src/cli/import-progress';
import { DEMO_SOURCE, demoFeatures } from '../src/seed/demo-dataset';

// `npx prisma db seed`: idempotent demo data, loaded through the normal import path (COPY batches,
// upsert, and --delete-missing for the demo source, so demo records dropped from the dataset go too).
void runCli(async (ctx) => {
  const s = await ctx.get(ImageryImportService).importFeatures(demoFeatures(), { source: DEMO_SOURCE, deleteMissing: true });
  console.log(`Demo seed: ${formatSummary(s)}`);
  return s.rejected > 0 ? 1 : 0;
});
