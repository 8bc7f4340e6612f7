// `npm run gazetteer:regions`: rewrites src/places/gazetteer/region-data.json from iso3166-2-db.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildRegionData, renderRegionData } from './region-data';

const file = resolve(__dirname, '..', '..', 'src', 'places', 'gazetteer', 'region-data.json');
writeFileSync(file, renderRegionData(buildRegionData()));
console.log(`wrote ${file}`);
