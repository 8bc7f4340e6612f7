import { ConsoleLogger, LogLevel } from '@nestjs/common';

// Command-line tools keep standard output for their data (an export, a new key, a summary): every log
// line goes to standard error, coloured only when that is a terminal, so `npm run export -- - | ...`
// carries records and nothing else.
export class CliLogger extends ConsoleLogger {
  constructor(logLevels: LogLevel[]) {
    super({ logLevels, colors: process.stderr.isTTY === true });
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}
