import { gpx } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { readFile, stat } from 'node:fs/promises';
import { bearingDeg } from './geodesy';

// A GPX track (read with @tmcw/togeojson on @xmldom/xmldom) as timed points, to place photos without
// GPS by their capture time (mapillary_tools' geotagging from GPX).

/** A track file larger than this is refused. */
export const MAX_TRACK_BYTES = 64 * 1024 * 1024;

export interface TrackPoint {
  epochMs: number;
  lat: number;
  lon: number;
  altitude?: number;
}

export interface TrackFix {
  lat: number;
  lon: number;
  altitude?: number;
  /** The direction of travel there (from the surrounding points), when they are apart. */
  heading?: number;
}

export class TrackError extends Error {}

export class GpxTrack {
  private constructor(readonly points: readonly TrackPoint[]) {}

  static async read(path: string): Promise<GpxTrack> {
    const size = (await stat(path)).size;
    if (size > MAX_TRACK_BYTES) throw new TrackError(`${path}: larger than ${MAX_TRACK_BYTES} bytes`);
    return GpxTrack.parse(await readFile(path, 'utf8'), path);
  }

  static parse(xml: string, name = 'the track'): GpxTrack {
    const problems: string[] = [];
    const doc = new DOMParser({
      onError: (level, message) => level !== 'warning' && problems.push(message),
    }).parseFromString(xml, 'text/xml');
    if (problems.length > 0 || !doc.documentElement || doc.documentElement.nodeName !== 'gpx') {
      throw new TrackError(`${name}: not a GPX file${problems.length ? ` (${problems[0].split('\n')[0]})` : ''}`);
    }
    const points: TrackPoint[] = [];
    for (const feature of gpx(doc as unknown as Parameters<typeof gpx>[0]).features) {
      const g = feature.geometry;
      const lines = g?.type === 'LineString' ? [g.coordinates] : g?.type === 'MultiLineString' ? g.coordinates : [];
      const times = feature.properties?.coordinateProperties?.times as string[] | string[][] | undefined;
      lines.forEach((line, i) => {
        const lineTimes = (Array.isArray(times?.[0]) ? (times as string[][])[i] : (times as string[])) ?? [];
        line.forEach(([lon, lat, altitude], j) => {
          const epochMs = Date.parse(lineTimes[j] ?? '');
          if (Number.isFinite(epochMs) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
            points.push({ epochMs, lat, lon, ...(Number.isFinite(altitude) ? { altitude } : {}) });
          }
        });
      });
    }
    if (points.length === 0) throw new TrackError(`${name}: no track point with a time`);
    points.sort((a, b) => a.epochMs - b.epochMs);
    return new GpxTrack(points);
  }

  get startMs(): number {
    return this.points[0].epochMs;
  }

  get endMs(): number {
    return this.points[this.points.length - 1].epochMs;
  }

  /** The position at an instant, linear between the two points around it; undefined outside the track. */
  at(epochMs: number): TrackFix | undefined {
    const p = this.points;
    if (epochMs < this.startMs || epochMs > this.endMs) return undefined;
    let lo = 0;
    let hi = p.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (p[mid].epochMs <= epochMs) lo = mid;
      else hi = mid;
    }
    const a = p[lo];
    const b = p[hi];
    const f = b.epochMs === a.epochMs ? 0 : (epochMs - a.epochMs) / (b.epochMs - a.epochMs);
    const fix: TrackFix = { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
    if (a.altitude !== undefined && b.altitude !== undefined) fix.altitude = a.altitude + (b.altitude - a.altitude) * f;
    if (a.lat !== b.lat || a.lon !== b.lon) fix.heading = bearingDeg(a, b);
    return fix;
  }
}
