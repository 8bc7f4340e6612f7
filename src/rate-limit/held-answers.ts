import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../config/app-config';

// A flooding client is answered slowly, not refused faster: its answer waits FLOOD_ANSWER_DELAY_MS
// before it is sent (docs/security.md#brute-force). A client that sends its next request when the
// last is answered (as a script in a loop does) then costs the server a few requests a second per
// connection, however fast it could send them. At most HELD_ANSWERS_MAX wait at once per instance;
// past it a flood is answered at once, as if nothing were held, so held answers never grow unbounded.
@Injectable()
export class HeldAnswers {
  private held = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** How many answers wait now. */
  get waiting(): number {
    return this.held;
  }

  // Resolves when the answer may be sent: after the delay, at once past the bound, or as soon as the
  // client has gone (nothing is then written to it).
  hold(res: Response): Promise<void> {
    const delayMs = this.config.floodAnswerDelayMs;
    if (delayMs === 0 || this.held >= this.config.heldAnswersMax) return Promise.resolve();
    this.held++;
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        res.off('close', release);
        this.held--;
        resolve();
      };
      const timer = setTimeout(release, delayMs);
      res.once('close', release);
    });
  }
}
