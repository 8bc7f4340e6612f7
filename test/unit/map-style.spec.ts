import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { emptyRange, FONTSTACKS, fontstackOf, rangeStart } from '../../src/map-style/glyph-files';
import { mapStyle, STYLE_MAX_ZOOM } from '../../src/map-style/map-style';
import { SEQUENCE_MAX_ZOOM, SEQUENCE_MIN_ZOOM } from '../../src/tiles/tile-limits';

// The service's own map style: valid by MapLibre's own validator, drawing only the tile layers the
// tiles contract names, in fonts the service serves.
const CONTRACT_LAYERS = ['streets', 'paths', 'water', 'landuse', 'buildings', 'places', 'coverage', 'sequences'];

describe('map style', () => {
  const style = mapStyle();
  const layers = style.layers as (LayerSpecification & { 'source-layer'?: string; layout?: Record<string, unknown> })[];

  it('is a valid MapLibre style', () => {
    expect(validateStyleMin(style)).toEqual([]);
    expect(STYLE_MAX_ZOOM).toBe(20);
  });

  it("draws the tiles contract's layers and no other", () => {
    const used = new Set(layers.filter((l) => 'source' in l && l.source === 'tiles').map((l) => l['source-layer']));
    expect([...used].sort()).toEqual([...CONTRACT_LAYERS].sort());
  });

  it('names street labels along the streets and thins places by min_zoom', () => {
    const streets = layers.find((l) => l.id === 'street-labels')!;
    expect(streets.layout?.['symbol-placement']).toBe('line');
    expect(JSON.stringify(layers.find((l) => l.id === 'place-labels'))).toContain('"min_zoom"');
  });

  it('uses only font stacks the service serves', () => {
    const fonts = new Set(JSON.stringify(layers).match(/Noto Sans [A-Za-z]+/g));
    expect([...fonts].every((f) => FONTSTACKS.includes(f))).toBe(true);
    expect(fonts.size).toBeGreaterThan(0);
  });

  it('hides the coverage layers until the page shows them, and lists them for it', () => {
    const ids = (style.metadata as Record<string, string[]>)['lis:coverage-layers'];
    expect(ids.length).toBeGreaterThan(2);
    for (const id of ids) expect(layers.find((l) => l.id === id)!.layout?.visibility).toBe('none');
  });

  it('draws the sequences as lines at the zooms the tiles have them, over the cells and under the images', () => {
    const at = (id: string) => layers.findIndex((l) => l.id === id);
    const sequences = layers[at('coverage-sequences')] as LayerSpecification & { minzoom?: number; maxzoom?: number };
    expect(sequences).toMatchObject({ type: 'line', 'source-layer': 'sequences' });
    expect([sequences.minzoom, sequences.maxzoom]).toEqual([SEQUENCE_MIN_ZOOM, SEQUENCE_MAX_ZOOM + 1]);
    expect((style.metadata as Record<string, string[]>)['lis:coverage-layers']).toContain('coverage-sequences');
    expect(at('coverage-cells')).toBeLessThan(at('coverage-sequences'));
    expect(at('coverage-sequences')).toBeLessThan(at('coverage-points'));
    // Coloured as the images are (360 or still), faded by the age of the newest date.
    const paint = JSON.stringify((sequences as { paint?: object }).paint);
    expect(paint).toContain('"interactive"');
    expect(paint).toContain('"date"');
  });
});

describe('glyph requests', () => {
  it('reads a range of 256 code points and refuses anything else', () => {
    expect(rangeStart('0-255')).toBe(0);
    expect(rangeStart('65280-65535')).toBe(65280);
    for (const bad of ['1-256', '0-256', '65536-65791', '-256-0', '0255']) expect(() => rangeStart(bad)).toThrow();
  });

  it('takes the first font stack it has from a list', () => {
    expect(fontstackOf('Arial Regular, Noto Sans Medium')).toBe('Noto Sans Medium');
    expect(() => fontstackOf('Arial Regular')).toThrow();
    expect(() => fontstackOf('../../package.json')).toThrow();
  });

  it('encodes an empty range as a stack with its name and range', () => {
    // field 1 (stacks), length 26: field 1 "Noto Sans Regular" (17), field 2 "0-255" (5)
    expect([...emptyRange('Noto Sans Regular', 0).subarray(0, 4)]).toEqual([0x0a, 26, 0x0a, 17]);
  });
});
