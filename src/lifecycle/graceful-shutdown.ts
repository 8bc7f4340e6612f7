import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { ShutdownState } from './shutdown-state';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

// On SIGTERM/SIGINT: turn readiness off, stop accepting connections, let in-flight requests finish
// (at most timeoutMs, then cut the rest), close the app (and with it the database pool), exit 0.
export function installGracefulShutdown(app: NestExpressApplication, timeoutMs: number, exit = (code: number) => process.exit(code)): void {
  const logger = new Logger('Shutdown');
  let started = false;
  const onSignal = (signal: string) => {
    if (started) return;
    started = true;
    logger.log(`${signal} received; draining in-flight requests (at most ${timeoutMs} ms)`);
    drainAndClose(app, timeoutMs, logger).then(
      () => {
        logger.log('Shut down cleanly');
        exit(0);
      },
      (error) => {
        logger.error(`Shutdown failed: ${(error as Error)?.stack ?? error}`);
        exit(1);
      },
    );
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);
}

export async function drainAndClose(app: NestExpressApplication, timeoutMs: number, logger = new Logger('Shutdown')): Promise<void> {
  app.get(ShutdownState).begin();
  const server = app.getHttpServer() as Server;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Keep-alive sockets become idle as their last response ends; close them as they do.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), timeoutMs);
  });
  try {
    if (await Promise.race([closed.then(() => false), timedOut])) {
      logger.warn(`Requests still running after ${timeoutMs} ms; closing their connections`);
      server.closeAllConnections();
      await closed;
    }
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
  await app.close();
}
