import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { DemoKeyOffer } from './demo-key-offer.service';

// The page's bundle is built by `npm run build:web` into dist/web, next to the compiled server.
export function webRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'web');
}

export interface WebPageConfig {
  // Only the built-in database's generated demo key, never a key an operator created or registered,
  // and only while the catalogue holds the demo's records alone (DemoKeyOffer).
  demoKey: string | null;
  /** MAP_STYLE_URL: the operator's map style; null for the offline basemap. */
  mapStyleUrl: string | null;
}

@Injectable()
export class WebPageService {
  private indexHtml: string | null = null;
  readonly root = webRoot();

  constructor(
    @Inject(APP_CONFIG) private readonly appConfig: AppConfig,
    private readonly demoKeys: DemoKeyOffer,
  ) {}

  offerDemoKey(key: string): void {
    this.demoKeys.offer(key);
  }

  async config(): Promise<WebPageConfig> {
    return { demoKey: await this.demoKeys.current(), mapStyleUrl: this.appConfig.mapStyleUrl ?? null };
  }

  // The page's content security policy: its own origin, plus the map style's when MAP_STYLE_URL is set
  // (the style, and the tiles, glyphs and sprites it names, are fetched by the page's map).
  contentSecurityPolicy(): string {
    const style = this.appConfig.mapStyleUrl;
    return style ? pageCsp(new URL(style).origin) : pageCsp();
  }

  // Read once: the built page does not change while the server runs.
  page(): string | null {
    if (this.indexHtml === null) {
      const file = join(this.root, 'index.html');
      if (!existsSync(file)) return null;
      this.indexHtml = readFileSync(file, 'utf8');
    }
    return this.indexHtml;
  }
}

// Everything the page loads comes from this service (no CDN, no external fonts, works offline), but
// a map style the operator chose. Images may come from anywhere a catalogue keeps them, so img-src
// alone is open.
export function pageCsp(mapOrigin?: string): string {
  const self = mapOrigin ? `'self' ${mapOrigin}` : "'self'";
  return [
    "default-src 'self'",
    `connect-src ${self}`,
    "img-src 'self' data: blob: http: https:",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}
