// `npm run gazetteer:categories`: rewrites src/search/query/poi-category-terms.json from @openstreetmap/id-tagging-schema.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildCategoryTerms, renderCategoryTerms } from './category-terms';

const file = resolve(__dirname, '..', '..', 'src', 'search', 'query', 'poi-category-terms.json');
const data = buildCategoryTerms();
writeFileSync(file, renderCategoryTerms(data));
console.log(`wrote ${file}: ${data.categories.length} categories`);
