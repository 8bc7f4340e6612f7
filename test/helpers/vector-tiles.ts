// Decodes a Mapbox Vector Tile with the reference decoder (@mapbox/vector-tile + pbf, CommonJS 1.x/3.x:
// their later versions are ES modules only, which Jest's CommonJS runtime cannot load).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS packages without types
const { VectorTile } = require('@mapbox/vector-tile');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS packages without types
const Pbf = require('pbf');

export type TileValue = string | number | boolean;

export interface DecodedFeature {
  /** 1 point, 2 line, 3 polygon. */
  type: 1 | 2 | 3;
  properties: Record<string, TileValue>;
  /** Vertices in tile coordinates (0..extent, the buffer beyond). */
  points: Array<{ x: number; y: number }>;
}

export interface DecodedLayer {
  extent: number;
  features: DecodedFeature[];
}

/** Every layer of the tile by name, each with its features. */
export function decodeTile(body: Buffer): Record<string, DecodedLayer> {
  const tile = new VectorTile(new Pbf(body));
  const out: Record<string, DecodedLayer> = {};
  for (const [name, layer] of Object.entries<any>(tile.layers)) {
    const features: DecodedFeature[] = [];
    for (let i = 0; i < layer.length; i++) {
      const f = layer.feature(i);
      features.push({ type: f.type, properties: f.properties, points: f.loadGeometry().flat() });
    }
    out[name] = { extent: layer.extent, features };
  }
  return out;
}

/** The tile (x, y) holding a point at zoom z (the Web Mercator tile grid). */
export function tileOf(lon: number, lat: number, z: number): { z: number; x: number; y: number } {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return {
    z,
    x: Math.floor(((lon + 180) / 360) * n),
    y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  };
}
