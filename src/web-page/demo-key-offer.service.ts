import { Injectable } from '@nestjs/common';
import { ImageryRepository } from '../imagery/imagery.repository';
import { DEMO_SOURCE } from '../seed/demo-dataset';

/** How long one look at the catalogue decides whether the page is offered the demo key. */
export const DEMO_KEY_RECHECK_MS = 5_000;

// The built-in database's demo key, offered to the search page (GET /config.json) only while every
// record in the catalogue is the demo's: the key reads everything, so once records of another source
// are there (an import into the built-in database) the page asks for a key instead. One indexed query
// decides it for DEMO_KEY_RECHECK_MS, shared by the requests meanwhile; a failed query withholds the key.
@Injectable()
export class DemoKeyOffer {
  private key: string | null = null;
  private lastCheck: { at: number; onlyDemo: Promise<boolean> } | null = null;

  constructor(private readonly imagery: ImageryRepository) {}

  offer(key: string): void {
    this.key = key;
    this.lastCheck = null;
  }

  async current(): Promise<string | null> {
    if (this.key === null) return null;
    return (await this.onlyDemoRecords()) ? this.key : null;
  }

  private onlyDemoRecords(): Promise<boolean> {
    const now = Date.now();
    if (this.lastCheck === null || now - this.lastCheck.at >= DEMO_KEY_RECHECK_MS) {
      const onlyDemo = this.imagery.hasRecordsOutside(DEMO_SOURCE).then(
        (others) => !others,
        () => false,
      );
      this.lastCheck = { at: now, onlyDemo };
    }
    return this.lastCheck.onlyDemo;
  }
}
