import { parseArgs, ParseArgsConfig } from 'node:util';
import { toolLog } from '../logging/cli-logger';

// Reading a tool's command line: the same rules for every tool, before anything is opened.

/** A command line the tool cannot use: said with the usage, exit 2. */
export class UsageError extends Error {}

/** `--help` or `-h`: the usage on standard output, exit 0. */
export class HelpRequest extends Error {}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

// The tool's options and --help; unknown options and missing values are usage errors (exit 2), like
// every other bad argument.
export function parseOptions<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  let parsed: { values: { help?: unknown } };
  try {
    parsed = parseArgs({ ...config, options: { ...config.options, ...HELP } });
  } catch (error) {
    if (String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(`${(error as Error).message}\n${usage}`);
    throw error;
  }
  if (parsed.values.help === true) throw new HelpRequest(usage);
  return parsed as ReturnType<typeof parseArgs<T>>;
}

// For a tool that does not run in runCli (cli-context.ts): --help and usage errors answered here.
export function parseOptionsOrExit<T extends ParseArgsConfig>(
  config: T,
  usage: string,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseOptions(config, usage);
  } catch (error) {
    if (error instanceof HelpRequest) {
      console.log(error.message);
      process.exit(0);
    }
    if (error instanceof UsageError) {
      toolLog.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
