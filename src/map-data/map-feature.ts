// One drawn object of the service's own map (a row of map_features; docs/map-tiles.md).
export type MapLayer = 'streets' | 'paths' | 'water' | 'landuse' | 'buildings';

export interface MapFeature {
  layer: MapLayer;
  class: string;
  name: string | null;
  /** The zoom from which it is drawn (areas: at the earliest; their size may put it later). */
  minZoom: number;
  /** A GeoJSON geometry in EPSG:4326, as osmium wrote it. */
  geometry: string;
}

/** Where an import's map features go (MapGeometrySession). */
export interface MapFeatureSink {
  add(features: readonly MapFeature[]): Promise<void>;
}
