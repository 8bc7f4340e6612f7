import { Writable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { createCliLogger, TOOL } from '../../src/logging/cli-logger';

function stream(tty: boolean) {
  let text = '';
  const out = new Writable({
    write(chunk, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(out, { isTTY: tty });
  return { out, text: () => text };
}

// What a command-line tool writes on standard error: the server's JSON lines off a terminal, plain
// readable lines on one; Nest's start-up lines neither way.
describe('the command-line tools’ logger', () => {
  afterEach(() => Logger.overrideLogger(new Logger()));

  it('writes one JSON object per line off a terminal, in the server’s shape', () => {
    const lines: string[] = [];
    Logger.overrideLogger(createCliLogger(stream(false).out, { write: (line: string) => void lines.push(line) }));
    new Logger('Database').log('Using the built-in database');
    new Logger('InstanceLoader').log('ApiKeyModule dependencies initialized');
    new Logger(TOOL).warn('rejected line 3: heading must be a number');
    new Logger(TOOL).error('the database is unavailable');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      {
        level: 'info',
        time: expect.any(String),
        pid: process.pid,
        context: 'Database',
        msg: 'Using the built-in database',
      },
      {
        level: 'warn',
        time: expect.any(String),
        pid: process.pid,
        context: TOOL,
        msg: 'rejected line 3: heading must be a number',
      },
      { level: 'error', time: expect.any(String), pid: process.pid, context: TOOL, msg: 'the database is unavailable' },
    ]);
  });

  it('writes readable lines on a terminal: the message, after `warning: ` or `error: `', () => {
    const terminal = stream(true);
    const logger = createCliLogger(terminal.out);
    Logger.overrideLogger(logger);
    new Logger('Database').log('Using the built-in database');
    logger.toolLinesOnly();
    new Logger('Database').log('Replica in use'); // a service's line once the tool works: left out
    new Logger(TOOL).log('1,000 of 2,000 places');
    new Logger(TOOL).warn('interrupted');
    new Logger(TOOL).error('no such file');
    // eslint-disable-next-line no-control-regex
    expect(terminal.text().replace(/\x1b\[\d+m/g, '')).toBe(
      'Using the built-in database\n1,000 of 2,000 places\nwarning: interrupted\nerror: no such file\n',
    );
  });
});
