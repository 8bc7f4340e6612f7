import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

// The STAC 1.0.0 and view extension schemas (test/fixtures/stac-schemas, committed copies) and the
// GeoJSON ones they refer to (geojson-schema), compiled once with ajv: every URL a schema refers to is
// one of these, so nothing is fetched.
const DIR = join(__dirname, '..', 'fixtures', 'stac-schemas');
const GEOJSON_DIR = join(require.resolve('geojson-schema/package.json'), '..');

const STAC = 'https://schemas.stacspec.org/v1.0.0';
export const SCHEMA_IDS = {
  catalog: `${STAC}/catalog-spec/json-schema/catalog.json`,
  collection: `${STAC}/collection-spec/json-schema/collection.json`,
  item: `${STAC}/item-spec/json-schema/item.json`,
  view: 'https://stac-extensions.github.io/view/v1.0.0/schema.json',
  featureCollection: 'https://geojson.org/schema/FeatureCollection.json',
};

function schemaFiles(): string[] {
  const stac = ['catalog-spec', 'collection-spec', 'item-spec'].flatMap((folder) =>
    readdirSync(join(DIR, folder, 'json-schema')).map((f) => join(DIR, folder, 'json-schema', f)),
  );
  const geojson = readdirSync(GEOJSON_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'package.json')
    .map((f) => join(GEOJSON_DIR, f));
  return [...stac, join(DIR, 'view-extension', 'schema.json'), ...geojson];
}

let ajv: Ajv | undefined;
function compiler(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // The STAC schemas use two formats ajv-formats leaves out: an IRI is an absolute URL (of any script), an
  // IRI reference may also be relative, which a link's href may be.
  ajv.addFormat('iri', (value: string) => URL.canParse(value));
  ajv.addFormat('iri-reference', (value: string) => URL.canParse(value, 'http://base.invalid/'));
  for (const file of schemaFiles()) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')));
  return ajv;
}

function validator(id: string): ValidateFunction {
  const found = compiler().getSchema(id) ?? compiler().getSchema(`${id}#`);
  if (!found) throw new Error(`schema ${id} not loaded`);
  return found;
}

/** The schema errors of a document (empty when it is valid), each as "path message". */
export function schemaErrors(kind: keyof typeof SCHEMA_IDS, document: unknown): string[] {
  const validate = validator(SCHEMA_IDS[kind]);
  if (validate(document)) return [];
  return (validate.errors ?? []).map((e) => `${kind}${e.instancePath} ${e.message}`);
}

/** An item's errors: STAC Item and every extension it declares (of those loaded here). */
export function itemErrors(item: any): string[] {
  const extensions: string[] = item?.stac_extensions ?? [];
  const unknown = extensions.filter((url) => url !== SCHEMA_IDS.view);
  return [
    ...schemaErrors('item', item),
    ...(extensions.includes(SCHEMA_IDS.view) ? schemaErrors('view', item) : []),
    ...unknown.map((url) => `no schema loaded for extension ${url}`),
  ];
}

/** An ItemCollection's errors: a GeoJSON FeatureCollection whose every feature is a valid item. */
export function itemCollectionErrors(collection: any): string[] {
  return [
    ...schemaErrors('featureCollection', collection),
    ...((collection?.features ?? []) as unknown[]).flatMap((f) => itemErrors(f)),
  ];
}
