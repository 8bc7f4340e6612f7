// `npm run gazetteer:region-names`: rewrites src/search/query/region-alone-names.json (the names a whole
// query may name a country or region by) from i18n-iso-countries and region-data.json.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildRegionAloneNames, renderRegionAloneNames } from './region-alone-names';

const file = resolve(__dirname, '..', '..', 'src', 'search', 'query', 'region-alone-names.json');
const data = buildRegionAloneNames();
writeFileSync(file, renderRegionAloneNames(data));
console.log(`wrote ${file}: ${data.names.split('\n').length} names`);
