// `npm run gazetteer:categories`: rewrites src/search/poi-category-terms.json from @openstreetmap/id-tagging-schema.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildCategoryTerms } from './category-terms';

const file = resolve(__dirname, '..', '..', 'src', 'search', 'poi-category-terms.json');
const data = buildCategoryTerms();
// One category a line: small diffs when the presets change.
const lines = data.categories.map((c) => `    ${JSON.stringify(c)}`);
writeFileSync(
  file,
  `{\n  "source": ${JSON.stringify(data.source)},\n  "categories": [\n${lines.join(',\n')}\n  ]\n}\n`,
);
console.log(`wrote ${file}: ${data.categories.length} categories`);
