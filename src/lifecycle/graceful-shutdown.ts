import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { ShutdownState } from './shutdown-state';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
// After the drain deadline, how long closing the app (the database pool) may still take.
const CLOSE_GRACE_MS = 2000;

export interface ShutdownOptions {
  /** How long in-flight requests may run after the signal (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
  /** Runs once the app (and its pool) is closed, e.g. stopping the built-in database. */
  afterClose?: () => Promise<unknown>;
  exit?: (code: number) => void;
}

// On SIGTERM/SIGINT: turn readiness off, stop accepting connections, let in-flight requests finish
// (at most timeoutMs, then cut the rest), close the app (and with it the database pool), exit 0.
export function installGracefulShutdown(app: NestExpressApplication, options: ShutdownOptions): void {
  const { timeoutMs, exit = (code: number) => process.exit(code) } = options;
  const logger = new Logger('Shutdown');
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    logger.log(`${signal} received; draining in-flight requests (at most ${timeoutMs} ms)`);
    drainAndClose(app, timeoutMs, logger)
      .then(() => options.afterClose?.())
      .then(
        () => exit(0),
        (error) => {
          logger.error(`Shutdown failed: ${(error as Error)?.stack ?? error}`);
          exit(1);
        },
      );
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);
}

export async function drainAndClose(
  app: NestExpressApplication,
  timeoutMs: number,
  logger = new Logger('Shutdown'),
): Promise<void> {
  app.get(ShutdownState).begin();
  const server = app.getHttpServer() as Server;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Keep-alive sockets become idle as their last response ends; close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  try {
    if ((await within(closed, timeoutMs)) === 'timeout') {
      logger.warn(`Requests still running after ${timeoutMs} ms; closing their connections`);
      server.closeAllConnections();
    }
  } finally {
    clearInterval(sweep);
  }
  // Closing the pool waits for queries still running; a cut-off request may hold one, so bound it too.
  if ((await within(app.close(), CLOSE_GRACE_MS)) === 'timeout') {
    logger.warn(`Closing the application took over ${CLOSE_GRACE_MS} ms; exiting anyway`);
  } else {
    logger.log('Shut down cleanly');
  }
}

async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([work.then(() => 'done' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
