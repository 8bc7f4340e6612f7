import { Popup } from 'maplibre-gl';
import type {
  IControl,
  LayerSpecification,
  Map as MapLibreMap,
  MapGeoJSONFeature,
  StyleSpecification,
} from 'maplibre-gl';

// The imagery layer ("Coverage": where images exist, from the service's tiles, docs/web-page.md) and
// the note that says where street detail comes from when the tiles have none.

export const OWN_STYLE_URL = '/map/style.json';
const COVERAGE_META = 'lis:coverage-layers';
// The coverage's per-image points start at this zoom (tiles contract); below it, counts per cell.
const IMAGES_ZOOM = 15;
// Street detail is looked for from this zoom: below it a town's streets may be too small to draw.
const DETAIL_ZOOM = 13;
const PICK_PX = 10;
const LIST_MAX = 20;

export function attachCoverage(map: MapLibreMap, container: HTMLElement, ownStyle: boolean): void {
  let layers: string[] = [];
  let shown = false;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'coverage-toggle';
  button.textContent = 'Coverage';
  button.title = 'Show where imagery exists';
  button.setAttribute('aria-pressed', 'false');
  const apply = () => {
    for (const id of layers) if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', shown ? 'visible' : 'none');
    container.dataset.coverage = shown ? 'shown' : 'hidden';
  };
  button.addEventListener('click', () => {
    shown = !shown;
    button.setAttribute('aria-pressed', String(shown));
    apply();
  });
  map.addControl(buttonControl(button), 'top-right');

  map.on('style.load', async () => {
    layers = ownStyle
      ? ((map.getStyle().metadata as Record<string, string[]>)?.[COVERAGE_META] ?? [])
      : await addCoverageTo(map);
    apply();
  });
  map.on('click', (e) => {
    const box: [[number, number], [number, number]] = [
      [e.point.x - PICK_PX, e.point.y - PICK_PX],
      [e.point.x + PICK_PX, e.point.y + PICK_PX],
    ];
    const found = shown ? map.queryRenderedFeatures(box, { layers: layers.filter((id) => map.getLayer(id)) }) : [];
    if (found.length === 0) return;
    if (map.getZoom() < IMAGES_ZOOM)
      map.easeTo({ center: e.lngLat, zoom: Math.min(IMAGES_ZOOM + 1, map.getZoom() + 3) });
    else showImages(map, e.lngLat, found);
  });
  if (ownStyle) watchStreetDetail(map, container);
}

// An operator's style (MAP_STYLE_URL) gets the same coverage layers from the service's own style, less
// its text (the operator's glyphs may lack the font).
async function addCoverageTo(map: MapLibreMap): Promise<string[]> {
  const own = (await (await fetch(OWN_STYLE_URL)).json()) as StyleSpecification;
  const ids = (own.metadata as Record<string, string[]>)[COVERAGE_META];
  map.addSource('lis-tiles', own.sources.tiles);
  const added: string[] = [];
  for (const layer of own.layers.filter((l) => ids.includes(l.id))) {
    if (layer.type === 'symbol' && layer.layout?.['text-field']) continue;
    map.addLayer({ ...layer, source: 'lis-tiles' } as LayerSpecification);
    added.push(layer.id);
  }
  return added;
}

type Properties = Record<string, unknown>;
interface Entry {
  id: string;
  text: string;
}

// The images drawn under the pointer (one per id); where there are none, the sequences' lines there (at
// zooms 15 and 16 a line runs between the images drawn).
function showImages(map: MapLibreMap, at: { lng: number; lat: number }, features: MapGeoJSONFeature[]): void {
  const images = byId(features, 'coverage');
  if (images.size > 0) {
    const entries = [...images].map(([id, p]) => {
      const view = p.interactive === true ? '360° view' : `facing ${Math.round(Number(p.heading))}°`;
      return { id, text: `${p.date ?? 'undated'} · ${view}` };
    });
    return showList(map, at, `${images.size} image${images.size === 1 ? '' : 's'} here`, 'id', entries);
  }
  const sequences = byId(features, 'sequences');
  if (sequences.size === 0) return;
  const entries = [...sequences].map(([id, p]) => ({
    id,
    text: `${p.count} ${p.interactive === true ? '360°' : 'still'} images · newest ${p.date}`,
  }));
  showList(map, at, `${sequences.size} sequence${sequences.size === 1 ? '' : 's'} here`, 'sequence', entries);
}

function byId(features: MapGeoJSONFeature[], sourceLayer: string): Map<string, Properties> {
  const found = new Map<string, Properties>();
  for (const f of features)
    if (f.sourceLayer === sourceLayer && f.properties.id) found.set(String(f.properties.id), f.properties);
  return found;
}

// A popup listing entries (at most LIST_MAX), each item carrying its id in data-<key>.
function showList(map: MapLibreMap, at: { lng: number; lat: number }, title: string, key: string, entries: Entry[]) {
  const list = document.createElement('div');
  list.className = 'coverage-list';
  const heading = document.createElement('p');
  heading.className = 'coverage-list-title';
  heading.textContent = title;
  const items = document.createElement('ul');
  for (const { id, text } of entries.slice(0, LIST_MAX)) {
    const item = document.createElement('li');
    item.dataset[key] = id;
    item.textContent = text;
    item.title = id;
    items.append(item);
  }
  list.append(heading, items);
  new Popup({ maxWidth: '260px' }).setLngLat(at).setDOMContent(list).addTo(map);
}

// Street detail comes from the OpenStreetMap data `npm run import:places` keeps: where the tiles in
// view have no street, path or building, the map says so (rather than showing an empty plane).
function watchStreetDetail(map: MapLibreMap, container: HTMLElement): void {
  const note = document.createElement('p');
  note.className = 'map-note';
  note.hidden = true;
  note.textContent =
    'No street detail here: streets, buildings and their names come from OpenStreetMap data imported with npm run import:places.';
  container.append(note);
  map.on('idle', () => {
    if (!map.getSource('tiles') || map.getZoom() < DETAIL_ZOOM) {
      note.hidden = true;
      delete container.dataset.streetDetail;
      return;
    }
    const detail = ['streets', 'paths', 'buildings'].some(
      (sourceLayer) => map.querySourceFeatures('tiles', { sourceLayer }).length > 0,
    );
    note.hidden = detail;
    container.dataset.streetDetail = detail ? 'shown' : 'none';
  });
}

function buttonControl(button: HTMLButtonElement): IControl {
  const box = document.createElement('div');
  box.className = 'maplibregl-ctrl maplibregl-ctrl-group coverage-control';
  box.append(button);
  return { onAdd: () => box, onRemove: () => box.remove() };
}
