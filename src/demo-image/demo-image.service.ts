import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ImageryRepository } from '../imagery/imagery.repository';
import { DEMO_SOURCE } from '../seed/demo-dataset';
import { formatCaptureDate, formatCompass } from '../search/answer/capture-format';

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

// Rendered images (about 1 KB each) and misses, so repeated requests cost no database lookup;
// concurrent requests for one id share one lookup. Bounded in count and age.
export const DEMO_IMAGE_CACHE = { max: 5_000, ttlMs: 10 * 60_000 } as const;
const MISSING = ''; // lru-cache keeps no undefined values; an empty string stands for "no such demo record"

// Draws a placeholder street scene for demo records, so the demo never shows broken images offline.
// Only records of the demo seed: the route needs no key, and an operator's catalogue is not for anyone.
@Injectable()
export class DemoImageService {
  private readonly cache = new LRUCache<string, string>({
    max: DEMO_IMAGE_CACHE.max,
    ttl: DEMO_IMAGE_CACHE.ttlMs,
    fetchMethod: async (id) => (await this.draw(id)) ?? MISSING,
  });

  constructor(private readonly imagery: ImageryRepository) {}

  async render(id: string): Promise<string | null> {
    return (await this.cache.fetch(id)) || null;
  }

  private async draw(id: string): Promise<string | null> {
    const record = await this.imagery.findForDemoImage(id, DEMO_SOURCE);
    if (!record) return null;
    const hue = Math.round(record.heading ?? 0) % 360;
    const label = escapeXml(record.address.length > 60 ? `${record.address.slice(0, 57)}...` : record.address);
    const caption = escapeXml(`${formatCaptureDate(record.capturedAt)} · ${formatCompass(record.heading)}`);
    return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400" role="img" aria-label="${label}">
  <rect width="640" height="240" fill="hsl(${hue},45%,78%)"/>
  <rect y="240" width="640" height="160" fill="#5b5b5b"/>
  <polygon points="250,400 390,400 330,240 310,240" fill="#e8e8e8" opacity="0.35"/>
  <rect x="40" y="110" width="120" height="130" fill="hsl(${(hue + 40) % 360},25%,55%)"/>
  <rect x="470" y="80" width="140" height="160" fill="hsl(${(hue + 200) % 360},25%,50%)"/>
  ${record.heading === null ? '' : `<g transform="translate(580 40) rotate(${record.heading})"><path d="M0,-22 L8,10 L0,4 L-8,10 Z" fill="#c0392b"/></g>`}
  <rect y="330" width="640" height="70" fill="rgba(0,0,0,0.55)"/>
  <text x="20" y="358" font-family="sans-serif" font-size="20" fill="#fff">${label}</text>
  <text x="20" y="385" font-family="sans-serif" font-size="15" fill="#ddd">${caption}</text>
</svg>`;
  }
}
