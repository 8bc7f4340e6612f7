import type { Map as MapLibreMap } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import type { ImageryRecord } from './api';
import { FOOTPRINT_ICON } from './map-images';

// Result markers (and the search pin) are HTML above the map's canvas: a label drawn under one would
// be hidden. Each marker's dot therefore also has a blank "footprint" in a symbol layer above every other layer: MapLibre
// places symbols from the top layer down, so the footprints are placed first and the labels below give
// way to them (moved by their variable anchors, or left out) instead of hiding under a marker.
// Records taken at the same spot are spread on a ring around it instead of stacking, each joined to
// the spot by a short leader; their footprints move with them.

export const FOOTPRINT_SOURCE = 'marker-footprints';
// Records closer than this (in degrees, ~1 m) are taken at the same spot.
const SAME_SPOT = 1e-5;
const RING_MIN_PX = 26;
const PX_PER_RECORD = 7;

export function addFootprintLayer(map: MapLibreMap, data: FeatureCollection): void {
  map.addSource(FOOTPRINT_SOURCE, { type: 'geojson', data });
  map.addLayer({
    id: FOOTPRINT_SOURCE,
    type: 'symbol',
    source: FOOTPRINT_SOURCE,
    layout: {
      'icon-image': FOOTPRINT_ICON,
      'icon-allow-overlap': true,
      'icon-ignore-placement': false,
      'icon-offset': ['get', 'offset'],
      'icon-size': ['get', 'size'],
      'icon-padding': 2,
    },
  });
}

/** Pixel offsets [dx, dy] of the records that share a spot; records alone stay where they are. */
export function spreadOffsets(records: ImageryRecord[]): Map<string, [number, number]> {
  const groups = new Map<string, ImageryRecord[]>();
  for (const record of records) {
    const [lon, lat] = record.geometry.coordinates;
    const key = `${Math.round(lon / SAME_SPOT)},${Math.round(lat / SAME_SPOT)}`;
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  const offsets = new Map<string, [number, number]>();
  for (const group of groups.values()) {
    if (group.length === 1) continue;
    const radius = Math.max(RING_MIN_PX, (group.length * PX_PER_RECORD) / Math.PI);
    group.forEach((record, i) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / group.length;
      offsets.set(record.id, [Math.round(radius * Math.cos(angle)), Math.round(radius * Math.sin(angle))]);
    });
  }
  return offsets;
}

// The search pin stands on its point: its footprint is above it, a little smaller than a marker's
// (icon-offset counts in the icon's own pixels, so -16 at size 0.7 is 11 px up).
const PIN_FOOTPRINT = { offset: [0, -16], size: 0.7 };

export function footprints(
  records: ImageryRecord[],
  offsets: Map<string, [number, number]>,
  searchPoint: { lat: number; lon: number } | null = null,
): FeatureCollection<Point> {
  const features: FeatureCollection<Point>['features'] = records.map((record) => ({
    type: 'Feature',
    properties: { id: record.id, offset: offsets.get(record.id) ?? [0, 0], size: 1 },
    geometry: { type: 'Point', coordinates: record.geometry.coordinates },
  }));
  if (searchPoint)
    features.push({
      type: 'Feature',
      properties: { id: 'search-point', ...PIN_FOOTPRINT },
      geometry: { type: 'Point', coordinates: [searchPoint.lon, searchPoint.lat] },
    });
  return { type: 'FeatureCollection', features };
}

// The leader from a spread marker back to the spot it was taken at: a line inside the marker's element.
export function addLeader(element: HTMLElement, [dx, dy]: [number, number]): void {
  const leader = document.createElement('span');
  leader.className = 'marker-leader';
  leader.style.width = `${Math.hypot(dx, dy)}px`;
  leader.style.transform = `rotate(${(Math.atan2(-dy, -dx) * 180) / Math.PI}deg)`;
  element.prepend(leader);
}
