// A hand-built SVG: per concurrency, grouped bars of requests/s and of p99 latency per query class
// for the three servers. Log scales: the naive peer is orders of magnitude apart from the others.
import type { ServerKind } from './bench-servers';

export interface ChartCell {
  cls: string;
  connections: number;
  server: ServerKind;
  rps: number;
  p99: number;
}

const COLOURS: Record<ServerKind, string> = { ours: '#2563eb', ceiling: '#16a34a', naive: '#dc2626' };
const WIDTH = 960;
const PANEL = 250;
const LEFT = 70;
const TOP = 50;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function panel(
  y0: number,
  title: string,
  unit: string,
  classes: string[],
  servers: ServerKind[],
  value: (cls: string, s: ServerKind) => number | undefined,
): string {
  const values = classes.flatMap((c) => servers.map((s) => value(c, s) ?? 0)).filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.max(0.1, Math.min(...values, 1))));
  const hi = Math.ceil(Math.log10(Math.max(...values, 10)));
  const h = PANEL - 60;
  const yOf = (v: number) => y0 + 30 + h - ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * h;
  const parts = [`<text x="${LEFT}" y="${y0 + 16}" font-size="14" font-weight="bold">${esc(title)}</text>`];
  for (let e = lo; e <= hi; e++) {
    const y = yOf(10 ** e);
    parts.push(`<line x1="${LEFT}" x2="${WIDTH - 20}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    parts.push(
      `<text x="${LEFT - 6}" y="${y + 4}" font-size="11" text-anchor="end">${10 ** e >= 1 ? (10 ** e).toLocaleString('en-US') : 10 ** e}</text>`,
    );
  }
  parts.push(
    `<text x="14" y="${y0 + 30 + h / 2}" font-size="11" transform="rotate(-90 14 ${y0 + 30 + h / 2})" text-anchor="middle">${esc(unit)} (log)</text>`,
  );
  const group = (WIDTH - LEFT - 20) / classes.length;
  const bar = (group * 0.8) / servers.length;
  classes.forEach((c, i) => {
    const x0 = LEFT + i * group + group * 0.1;
    servers.forEach((s, j) => {
      const v = value(c, s);
      if (v === undefined) return;
      const y = yOf(v);
      const x = x0 + j * bar;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${(y0 + 30 + h - y).toFixed(1)}" fill="${COLOURS[s]}"><title>${esc(`${c} ${s}: ${v} ${unit}`)}</title></rect>`,
      );
      // 0: the server had no 2xx response in that run.
      const label = v === 0 ? 'none' : v >= 100 ? String(Math.round(v)) : String(Number(v.toFixed(1)));
      parts.push(
        `<text x="${(x + bar / 2).toFixed(1)}" y="${(y - 3).toFixed(1)}" font-size="9" text-anchor="middle">${label}</text>`,
      );
    });
    parts.push(
      `<text x="${(x0 + group * 0.4).toFixed(1)}" y="${y0 + 30 + h + 16}" font-size="11" text-anchor="middle">${esc(c)}</text>`,
    );
  });
  return parts.join('\n');
}

export function chartSvg(cells: ChartCell[], title: string): string {
  const classes = [...new Set(cells.map((c) => c.cls))];
  const servers = (['ours', 'ceiling', 'naive'] as ServerKind[]).filter((s) => cells.some((c) => c.server === s));
  const concurrencies = [...new Set(cells.map((c) => c.connections))].sort((a, b) => a - b);
  const find = (cls: string, s: ServerKind, n: number) =>
    cells.find((c) => c.cls === cls && c.server === s && c.connections === n);
  const panels: string[] = [];
  let y = TOP;
  for (const n of concurrencies) {
    panels.push(
      panel(y, `requests/s (2xx), ${n} connections`, 'req/s', classes, servers, (c, s) => find(c, s, n)?.rps),
    );
    y += PANEL;
    panels.push(
      panel(y, `p99 latency, ${n} connections (lower is better)`, 'ms', classes, servers, (c, s) => find(c, s, n)?.p99),
    );
    y += PANEL;
  }
  const legend = servers.map(
    (s, i) =>
      `<rect x="${LEFT + i * 110}" y="28" width="12" height="12" fill="${COLOURS[s]}"/><text x="${LEFT + i * 110 + 16}" y="38" font-size="12">${s}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y + 10}" viewBox="0 0 ${WIDTH} ${y + 10}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${LEFT}" y="18" font-size="15" font-weight="bold">${esc(title)}</text>`,
    ...legend,
    ...panels,
    '</svg>',
    '',
  ].join('\n');
}
