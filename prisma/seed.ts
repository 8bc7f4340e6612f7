import { ImageryImportService } from '../src/imagery/imagery-import.service';
import { ImageryPlaceLinker } from '../src/imagery/address-recovery/imagery-place-linker.service';
import { runCli } from '../src/cli/cli-context';
import { formatSummary } from '../src/cli/import-progress';
import { GazetteerSeedService } from '../src/places/gazetteer/gazetteer-seed.service';
import { DEMO_SOURCE, demoFeatures } from '../src/seed/demo-dataset';

// `npx prisma db seed`: the built-in world gazetteer, then idempotent demo data, loaded through the
// normal import path (COPY batches, upsert, and --delete-missing for the demo source, so demo
// records dropped from the dataset go too). Re-seeding unchanged data writes nothing.
void runCli(
  () => undefined,
  async (ctx) => {
    const g = await ctx.get(GazetteerSeedService).seed();
    console.log(
      `World gazetteer: ${g.inserted} inserted, ${g.updated} updated, ${g.unchanged} unchanged, ${g.deleted} deleted in ${g.seconds.toFixed(1)} s`,
    );
    const s = await ctx
      .get(ImageryImportService)
      .importFeatures(demoFeatures(), { source: DEMO_SOURCE, deleteMissing: true });
    console.log(`Demo seed: ${formatSummary(s)}`);
    // Records without a locality (new ones) and with a recovered address get their places.
    const links = await ctx.get(ImageryPlaceLinker).relinkAfterPlaceImport();
    console.log(`Imagery linked to places: ${links.relinked} changed, ${links.unchanged} unchanged`);
    return s.rejected > 0 ? 1 : 0;
  },
);
