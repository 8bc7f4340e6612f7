// `npm run gazetteer:abbreviations`: rewrites src/search/vocabulary/place-abbreviations.json from @mapbox/geocoder-abbreviations.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { buildPlaceAbbreviations, renderPlaceAbbreviations } from './place-abbreviations';

const file = resolve(__dirname, '..', '..', 'src', 'search', 'vocabulary', 'place-abbreviations.json');
const data = buildPlaceAbbreviations();
// As `npm run format` would leave it, so lint:format passes on the written file.
resolveConfig(file)
  .then((options) => format(renderPlaceAbbreviations(data), { ...options, filepath: file }))
  .then((text) => {
    writeFileSync(file, text);
    console.log(`wrote ${file}: ${data.groups.length} groups`);
  })
  .catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
