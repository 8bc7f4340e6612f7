// `npm run gazetteer:regions`: rewrites src/places/gazetteer/region-data.json and
// region-names-by-language.json from iso3166-2-db, and territory-sovereigns.json from
// @rapideditor/country-coder.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  buildRegionData,
  buildRegionNamesByLanguage,
  renderRegionData,
  renderRegionNamesByLanguage,
} from './region-data';
import { buildTerritorySovereigns, renderTerritorySovereigns } from './territory-sovereigns';

const dir = resolve(__dirname, '..', '..', 'src', 'places', 'gazetteer');
writeFileSync(resolve(dir, 'region-data.json'), renderRegionData(buildRegionData()));
writeFileSync(resolve(dir, 'region-names-by-language.json'), renderRegionNamesByLanguage(buildRegionNamesByLanguage()));
writeFileSync(resolve(dir, 'territory-sovereigns.json'), renderTerritorySovereigns(buildTerritorySovereigns()));
console.log(`wrote ${dir}/region-data.json, region-names-by-language.json and territory-sovereigns.json`);
