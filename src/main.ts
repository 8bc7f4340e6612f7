import { Logger } from '@nestjs/common';
import { createApp, prepareDatabase } from './app';
import { ConfigError, loadConfig } from './config/app-config';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await prepareDatabase(config, app);
  installGracefulShutdown(app, config.shutdownTimeoutMs);
  await app.listen(config.port, config.host);
  new Logger('Startup').log(`Listening on http://${config.host}:${config.port}`);
}

main().catch((error) => {
  // A configuration problem is the user's to fix: print it plainly, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
