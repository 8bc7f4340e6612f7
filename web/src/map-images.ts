import type { Map as MapLibreMap } from 'maplibre-gl';

// The images the map draws itself, the first time a layer needs them (no sprite to fetch):
// - "label:place:{text}": the names beside the search's place pins (web/src/map-overlays.ts), drawn
//   with the system font so they show on any style, an operator's whose glyphs lack Noto Sans included;
// - "coverage-view": an image's viewing direction in the coverage layer (src/map-style), a cone
//   pointing up that the style rotates by the image's heading;
// - "marker-footprint": a blank square as large as a result marker's dot, in a layer above every
//   label (web/src/map-footprints.ts), so labels give way to the markers instead of hiding under them.
const LABEL_PREFIX = 'label:';
export const VIEW_ICON = 'coverage-view';
export const FOOTPRINT_ICON = 'marker-footprint';
export const FOOTPRINT_PX = 30;

export function attachMapImages(map: MapLibreMap): void {
  map.setMissingStyleImageResolver((id) => {
    if (map.hasImage(id)) return;
    if (id.startsWith(LABEL_PREFIX)) drawLabel(map, id);
    else if (id === VIEW_ICON) drawViewCone(map);
    else if (id === FOOTPRINT_ICON)
      map.addImage(id, {
        width: FOOTPRINT_PX,
        height: FOOTPRINT_PX,
        data: new Uint8Array(FOOTPRINT_PX * FOOTPRINT_PX * 4),
      });
  });
}

export const labelImage = (kind: 'place', text: string) => `${LABEL_PREFIX}${kind}:${text}`;

const pixelRatio = () => Math.min(2, window.devicePixelRatio || 1);

function drawLabel(map: MapLibreMap, id: string): void {
  const text = id.split(':').slice(2).join(':');
  const ratio = pixelRatio();
  const font = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  ctx.font = font;
  const width = Math.ceil(ctx.measureText(text).width) + 6;
  const height = 16;
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  ctx.scale(ratio, ratio);
  ctx.font = font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgba(246, 243, 236, 0.95)';
  ctx.strokeText(text, width / 2, height / 2);
  ctx.fillStyle = '#7c2d12';
  ctx.fillText(text, width / 2, height / 2);
  map.addImage(id, ctx.getImageData(0, 0, canvas.width, canvas.height), { pixelRatio: ratio });
}

// A 60° sector from the image's position (the icon's centre) upwards, fading out.
function drawViewCone(map: MapLibreMap): void {
  const ratio = pixelRatio();
  const size = 40;
  const canvas = document.createElement('canvas');
  canvas.width = size * ratio;
  canvas.height = size * ratio;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(ratio, ratio);
  const c = size / 2;
  const gradient = ctx.createRadialGradient(c, c, 0, c, c, c);
  gradient.addColorStop(0, 'rgba(29, 78, 216, 0.7)');
  gradient.addColorStop(1, 'rgba(29, 78, 216, 0)');
  ctx.fillStyle = gradient;
  ctx.beginPath();
  ctx.moveTo(c, c);
  ctx.arc(c, c, c, -Math.PI / 2 - Math.PI / 6, -Math.PI / 2 + Math.PI / 6);
  ctx.closePath();
  ctx.fill();
  map.addImage(VIEW_ICON, ctx.getImageData(0, 0, canvas.width, canvas.height), { pixelRatio: ratio });
}
