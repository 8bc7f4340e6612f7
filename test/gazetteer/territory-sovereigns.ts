import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { allCountries } from '../../src/places/regions';

// The sovereign of each ISO 3166-1 entity that is a territory or dependency of another (Greenland of
// Denmark, Puerto Rico of the United States, Hong Kong of China), from @rapideditor/country-coder
// (ISC; the borders the iD and Rapid editors code OpenStreetMap's countries with): its features of
// level "territory" with the alpha-2 code of the country they lie in. Its "subterritory" features
// (Ascension, the Canary Islands) are no ISO 3166-1 entity of their own.

interface CountryCoderFeature {
  properties: { iso1A2?: string; country?: string; level: string };
}

const PACKAGE = '@rapideditor/country-coder';

export interface TerritorySovereigns {
  source: string;
  /** Territory alpha-2 -> its sovereign's alpha-2, sorted by territory. */
  sovereigns: Record<string, string>;
}

export function buildTerritorySovereigns(): TerritorySovereigns {
  const load = createRequire(__filename);
  const { borders } = load(PACKAGE) as { borders: { features: CountryCoderFeature[] } };
  // The package exports no package.json: its version is read beside its entry file.
  const entry = load.resolve(PACKAGE);
  const manifest = join(entry.slice(0, entry.lastIndexOf(`${sep}dist${sep}`)), 'package.json');
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  const entities = new Set(allCountries().map((c) => c.code));
  const pairs = borders.features
    .map((f) => f.properties)
    .filter((p) => p.level === 'territory' && p.iso1A2 && p.country && p.country !== p.iso1A2)
    .filter((p) => entities.has(p.iso1A2!) && entities.has(p.country!))
    .map((p) => [p.iso1A2!, p.country!] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return { source: `${PACKAGE}@${version} (ISC)`, sovereigns: Object.fromEntries(pairs) };
}

export function renderTerritorySovereigns(data: TerritorySovereigns): string {
  const entries = Object.entries(data.sovereigns).map(([t, s]) => `    ${JSON.stringify(t)}: ${JSON.stringify(s)}`);
  return `{\n  "source": ${JSON.stringify(data.source)},\n  "sovereigns": {\n${entries.join(',\n')}\n  }\n}\n`;
}
