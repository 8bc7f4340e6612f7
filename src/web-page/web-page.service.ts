import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Injectable } from '@nestjs/common';

// The page's bundle is built by `npm run build:web` into dist/web, next to the compiled server.
export function webRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'web');
}

export interface WebPageConfig {
  // Only the built-in database's generated demo key, never a key an operator created or registered.
  demoKey: string | null;
}

@Injectable()
export class WebPageService {
  private demoKey: string | null = null;
  private indexHtml: string | null = null;
  readonly root = webRoot();

  offerDemoKey(key: string): void {
    this.demoKey = key;
  }

  config(): WebPageConfig {
    return { demoKey: this.demoKey };
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
