// `npm run gazetteer:regions`: rewrites src/places/gazetteer/region-data.json and
// region-names-by-language.json from iso3166-2-db.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  buildRegionData,
  buildRegionNamesByLanguage,
  renderRegionData,
  renderRegionNamesByLanguage,
} from './region-data';

const dir = resolve(__dirname, '..', '..', 'src', 'places', 'gazetteer');
writeFileSync(resolve(dir, 'region-data.json'), renderRegionData(buildRegionData()));
writeFileSync(resolve(dir, 'region-names-by-language.json'), renderRegionNamesByLanguage(buildRegionNamesByLanguage()));
console.log(`wrote ${dir}/region-data.json and region-names-by-language.json`);
