import { NestExpressApplication } from '@nestjs/platform-express';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeldAnswers } from '../../src/rate-limit/held-answers';
import { AppConfig } from '../../src/config/app-config';
import { startApp } from '../helpers/test-app';

// A flooding client's answers wait FLOOD_ANSWER_DELAY_MS (docs/security.md#brute-force): a
// locked-out address's 429s and one address's health probes past HEALTH_PROBES_PER_SECOND; every
// other client is answered at once, and at most HELD_ANSWERS_MAX wait.
const DELAY_MS = 800;
const BAD_KEY = 'lis_not-a-real-key-000000000000000000000000';

interface Answer {
  status: number;
  ms: number;
  order: number;
  body: unknown;
}

async function listening(overrides: Partial<AppConfig>) {
  const app = await startApp({ trustProxy: ['loopback'], floodAnswerDelayMs: DELAY_MS, ...overrides });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  let finished = 0;
  const send = async (path: string, from: string, init: RequestInit = {}): Promise<Answer> => {
    const started = performance.now();
    const headers = { 'x-forwarded-for': from, 'content-type': 'application/json', ...init.headers };
    const res = await fetch(`${base}${path}`, { ...init, headers });
    const body = await res.json();
    return { status: res.status, ms: performance.now() - started, order: finished++, body };
  };
  const search = (from: string) =>
    send('/search', from, { method: 'POST', headers: { 'x-api-key': BAD_KEY }, body: '{"query":"x"}' });
  return { app, base, send, search };
}

// Probes counted per second: start a burst early in one, so it is counted in one.
async function startOfASecond(): Promise<void> {
  const ms = Date.now() % 1000;
  if (ms > 100) await sleep(1000 - ms);
}

describe('answers held for a flooding client', () => {
  let app: NestExpressApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("holds a locked-out address's 429 and no other client's answer", async () => {
    const s = await listening({ authFailuresPerMinute: 2 });
    app = s.app;
    const attacker = '203.0.113.21';
    expect((await s.search(attacker)).status).toBe(401);
    expect((await s.search(attacker)).status).toBe(401);
    const tripping = await s.search(attacker); // the failure over the limit: answered at once
    expect(tripping.status).toBe(429);
    expect(tripping.ms).toBeLessThan(DELAY_MS);
    const held = s.search(attacker);
    await sleep(50);
    const other = await s.search('203.0.113.22');
    const locked = await held;
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(locked.ms).toBeGreaterThanOrEqual(DELAY_MS - 5);
    expect(other.status).toBe(401);
    expect(other.order).toBeLessThan(locked.order); // sent after it, answered before it
    expect(app.get(HeldAnswers).waiting).toBe(0);
  });

  it('holds at most HELD_ANSWERS_MAX answers; past it a flood is answered at once', async () => {
    const s = await listening({ authFailuresPerMinute: 1, heldAnswersMax: 2 });
    app = s.app;
    const attacker = '203.0.113.31';
    await s.search(attacker);
    expect((await s.search(attacker)).status).toBe(429);
    const first = [s.search(attacker), s.search(attacker)];
    await sleep(100);
    expect(app.get(HeldAnswers).waiting).toBe(2);
    const past = await s.search(attacker);
    expect(past.status).toBe(429);
    const held = await Promise.all(first);
    expect(held.every((a) => a.ms >= DELAY_MS - 5 && a.order > past.order)).toBe(true);
  });

  it("lets go of a held answer whose client has gone, so a flood's closed connections are not counted", async () => {
    const s = await listening({ authFailuresPerMinute: 1 });
    app = s.app;
    const attacker = '203.0.113.41';
    await s.search(attacker);
    await s.search(attacker);
    const gone = new AbortController();
    const aborted = fetch(`${s.base}/search`, {
      method: 'POST',
      headers: { 'x-forwarded-for': attacker, 'x-api-key': BAD_KEY, 'content-type': 'application/json' },
      body: '{"query":"x"}',
      signal: gone.signal,
    }).catch((error: Error) => error.name);
    await sleep(100);
    expect(app.get(HeldAnswers).waiting).toBe(1);
    gone.abort();
    expect(await aborted).toBe('AbortError');
    await sleep(100);
    expect(app.get(HeldAnswers).waiting).toBe(0);
  });

  it('answers one address its HEALTH_PROBES_PER_SECOND probes at once and the rest later, never refused', async () => {
    const s = await listening({ healthProbesPerSecond: 3 });
    app = s.app;
    await startOfASecond();
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, i) => s.send(i % 2 ? '/health/live' : '/health/ready', '203.0.113.51')),
    );
    const other = await s.send('/health/ready', '203.0.113.52');
    expect(burst.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(burst.every((a) => (a.body as { status: string }).status === 'ok')).toBe(true);
    const fast = burst.filter((a) => a.ms < DELAY_MS);
    const slow = burst.filter((a) => a.ms >= DELAY_MS - 5);
    expect([fast.length, slow.length]).toEqual([3, 3]);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(DELAY_MS);
  });
});
