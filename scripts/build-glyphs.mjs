// Builds the map's glyphs (the signed distance fields MapLibre draws text with) from the Noto Sans
// font files of @fontsource/noto-sans into dist/glyphs/{fontstack}/{start}-{end}.pbf, in plain
// JavaScript: opentype.js reads the outlines, the distances are computed here from the outlines
// themselves, and pbf writes MapLibre's glyph protobuf. No native module, no download.
// The layout follows the glyph servers MapLibre styles are made for (sdf-glyph-foundry): 24 px per em,
// a 3 px buffer, distances encoded over 8 px with the outline at 192, `top` relative to the ascender.
// scripts/build.mjs runs it when this file or package-lock.json changed (about 10 s on 2 shared cores).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const opentype = require('opentype.js');
// pbf 3 is CommonJS; pbf 4 is an ES module whose class is its default export.
const pbfModule = require('pbf');
const Pbf = pbfModule.default ?? pbfModule;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'glyphs');
const FILES = dirname(require.resolve('@fontsource/noto-sans/package.json'));

// The font stacks the style names (src/map-style/map-style.ts), by weight.
export const FONTSTACKS = { 'Noto Sans Regular': 400, 'Noto Sans Medium': 500 };
// Fontsource splits the font by script; together these cover Latin, Greek, Cyrillic and Vietnamese.
const SUBSETS = ['latin', 'latin-ext', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'vietnamese'];
const SIZE = 24;
const BUFFER = 3;
const RADIUS = 8;
const CUTOFF = 0.25;
// Past this distance (px) outside the outline a pixel encodes as 0; inside, 255 from 2 px in.
const REACH = RADIUS * (1 - CUTOFF);

function loadFaces(weight) {
  return SUBSETS.map((subset) => {
    const file = join(FILES, 'files', `noto-sans-${subset}-${weight}-normal.woff`);
    const data = readFileSync(file);
    return opentype.parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  });
}

// The outline as closed rings of points in pixels (y up, baseline at 0), curves flattened.
function rings(glyph, scale) {
  const result = [];
  let ring = [];
  let x = 0;
  let y = 0;
  const flat = (n, at) => {
    for (let i = 1; i <= n; i++) ring.push(at(i / n));
  };
  for (const c of glyph.path.commands) {
    if (c.type === 'M') {
      if (ring.length > 1) result.push(ring);
      ring = [[c.x * scale, c.y * scale]];
    } else if (c.type === 'L') ring.push([c.x * scale, c.y * scale]);
    else if (c.type === 'Q')
      flat(6, (t) => {
        const u = 1 - t;
        return [
          (u * u * x + 2 * u * t * c.x1 + t * t * c.x) * scale,
          (u * u * y + 2 * u * t * c.y1 + t * t * c.y) * scale,
        ];
      });
    else if (c.type === 'C')
      flat(8, (t) => {
        const u = 1 - t;
        const [a, b, d, e] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
        return [(a * x + b * c.x1 + d * c.x2 + e * c.x) * scale, (a * y + b * c.y1 + d * c.y2 + e * c.y) * scale];
      });
    if (c.type !== 'Z') [x, y] = [c.x, c.y];
  }
  if (ring.length > 1) result.push(ring);
  return result;
}

function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const len = dx * dx + dy * dy;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len));
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return Math.sqrt(ex * ex + ey * ey);
}

// Nonzero winding, as TrueType fills outlines (overlapping contours stay filled).
function inside(px, py, segments) {
  let winding = 0;
  for (const [ax, ay, bx, by] of segments) {
    if (ay <= py) {
      if (by > py && (bx - ax) * (py - ay) - (px - ax) * (by - ay) > 0) winding++;
    } else if (by <= py && (bx - ax) * (py - ay) - (px - ax) * (by - ay) < 0) winding--;
  }
  return winding !== 0;
}

function renderGlyph(font, glyph, id) {
  const scale = SIZE / font.unitsPerEm;
  const ascender = Math.ceil(font.tables.hhea.ascender * scale);
  const advance = Math.round(glyph.advanceWidth * scale);
  const outline = rings(glyph, scale);
  const points = outline.flat();
  if (points.length === 0) return { id, width: 0, height: 0, left: 0, top: -ascender, advance };
  const xMin = Math.round(Math.min(...points.map((p) => p[0])));
  const yMin = Math.round(Math.min(...points.map((p) => p[1])));
  const xMax = Math.round(Math.max(...points.map((p) => p[0])));
  const yMax = Math.round(Math.max(...points.map((p) => p[1])));
  const width = xMax - xMin;
  const height = yMax - yMin;
  if (width === 0 || height === 0) return { id, width: 0, height: 0, left: 0, top: -ascender, advance };
  const segments = [];
  for (const ring of outline)
    for (let i = 0; i < ring.length; i++) {
      const [ax, ay] = ring[i];
      const [bx, by] = ring[(i + 1) % ring.length];
      segments.push([ax - xMin + BUFFER, ay - yMin + BUFFER, bx - xMin + BUFFER, by - yMin + BUFFER]);
    }
  const w = width + 2 * BUFFER;
  const h = height + 2 * BUFFER;
  const bitmap = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const py = y + 0.5;
    // Only outlines within REACH of the row matter: farther, the encoded value is 0 (or 255) anyway,
    // and every segment that crosses the row, which the inside test needs, is among them.
    const near = segments.filter(([, ay, , by]) => Math.min(ay, by) - REACH <= py && Math.max(ay, by) + REACH >= py);
    for (let x = 0; x < w; x++) {
      const px = x + 0.5;
      let d = REACH;
      for (const [ax, ay, bx, by] of near) d = Math.min(d, segmentDistance(px, py, ax, ay, bx, by));
      if (inside(px, py, near)) d = -d;
      const n = Math.max(0, Math.min(255, Math.round((d * 256) / RADIUS + CUTOFF * 256)));
      bitmap[(h - 1 - y) * w + x] = 255 - n; // rows top to bottom
    }
  }
  return { id, bitmap, width, height, left: xMin, top: yMax - ascender, advance };
}

function writeGlyph(g, pbf) {
  pbf.writeVarintField(1, g.id);
  if (g.bitmap) pbf.writeBytesField(2, g.bitmap);
  pbf.writeVarintField(3, g.width);
  pbf.writeVarintField(4, g.height);
  pbf.writeSVarintField(5, g.left);
  pbf.writeSVarintField(6, g.top);
  pbf.writeVarintField(7, g.advance);
}

export function encodeRange(name, start, glyphs) {
  const pbf = new Pbf();
  pbf.writeMessage(
    1,
    (_, stack) => {
      stack.writeStringField(1, name);
      stack.writeStringField(2, `${start}-${start + 255}`);
      for (const g of glyphs) stack.writeMessage(3, writeGlyph, g);
    },
    null,
  );
  return Buffer.from(pbf.finish());
}

function buildStack(name, weight) {
  const faces = loadFaces(weight);
  const ranges = new Map();
  const seen = new Set();
  for (const font of faces)
    for (let i = 0; i < font.glyphs.length; i++) {
      const glyph = font.glyphs.get(i);
      for (const code of glyph.unicodes ?? []) {
        if (code > 0xffff || seen.has(code)) continue;
        seen.add(code);
        const start = code - (code % 256);
        if (!ranges.has(start)) ranges.set(start, []);
        ranges.get(start).push(renderGlyph(font, glyph, code));
      }
    }
  mkdirSync(join(out, name), { recursive: true });
  for (const [start, glyphs] of ranges) {
    glyphs.sort((a, b) => a.id - b.id);
    writeFileSync(join(out, name, `${start}-${start + 255}.pbf`), encodeRange(name, start, glyphs));
  }
  return seen.size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  const counts = Object.entries(FONTSTACKS).map(([name, weight]) => `${name}: ${buildStack(name, weight)}`);
  if (process.env.npm_config_loglevel !== 'silent')
    console.log(
      `glyphs built into dist/glyphs in ${((Date.now() - started) / 1000).toFixed(1)} s (${counts.join(', ')})`,
    );
}
