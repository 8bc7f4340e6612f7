import { basename } from 'node:path';
import { styleText } from 'node:util';
import { Logger, type LoggerService } from '@nestjs/common';
import pino, { DestinationStream } from 'pino';
import { logLineOptions, nestLoggerFor } from './logging';

// Nest's own start-up lines (modules initialised), not the tool's: left out.
const NEST_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'NestApplication', 'RoutesResolver', 'RouterExplorer']);

// Command-line tools keep standard output for their data (an export, a new key, a summary); every
// other line (which database, progress, rejections, notes, the error that ended the run) is logged,
// on standard error: readable lines on a terminal, and otherwise the server's JSON lines (pino, one
// object per line: level, time, pid, context, msg), for whatever collects them. LOG_LEVEL is the
// server's: a tool always says what it does and what went wrong.
export function createCliLogger(
  stream: NodeJS.WriteStream = process.stderr,
  destination?: DestinationStream,
): CliLogger {
  if (stream.isTTY && !destination) return new CliLogger(new TerminalLines(stream));
  const json = pino(logLineOptions('info'), destination ?? pino.destination({ dest: 2, sync: true }));
  return new CliLogger(nestLoggerFor(json));
}

/** Makes the CLI logger every Nest Logger's (call first: a line logged before goes out in Nest's own format). */
export function useCliLogger(): CliLogger {
  const logger = createCliLogger();
  Logger.overrideLogger(logger);
  return logger;
}

/** The tool this process runs (`import` for src/cli/import.cli.ts), the context of its own lines. */
export const TOOL = basename(process.argv[1] ?? 'cli').replace(/\.cli\.[jt]s$/, '');

/** The tool's own lines (progress, rejections, notes, errors). */
export const toolLog = new Logger(TOOL);

export class CliLogger implements LoggerService {
  private quiet = false;

  constructor(private readonly out: LoggerService) {}

  /** From now on, `log` lines of the tool's own only (not the services' start-up lines); warnings and errors all. */
  toolLinesOnly(): void {
    this.quiet = true;
  }

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (NEST_CONTEXTS.has(context as string) || (this.quiet && context !== TOOL)) return;
    this.out.log(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.out.warn(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.out.error(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.out.error(message, ...rest);
  }
}

// A line per message: the message alone, after `warning: ` or `error: ` for those levels.
class TerminalLines implements LoggerService {
  constructor(private readonly stream: NodeJS.WriteStream) {}

  log(message: unknown): void {
    this.write('', message);
  }

  warn(message: unknown): void {
    this.write(styleText('yellow', 'warning: '), message);
  }

  // Nest's Logger passes (message, stack?, context?): a stack, when there is one, follows the message.
  error(message: unknown, ...rest: unknown[]): void {
    this.write(styleText('red', 'error: '), message);
    if (rest.length > 1 && typeof rest[0] === 'string' && rest[0].includes('\n')) this.stream.write(`${rest[0]}\n`);
  }

  private write(prefix: string, message: unknown): void {
    const text = message instanceof Error ? (message.stack ?? message.message) : String(message);
    this.stream.write(`${prefix}${text}\n`);
  }
}
