import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { Logger as PinoNestLogger, Params, PinoLogger } from 'nestjs-pino';
import pino, { DestinationStream, Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { CENSOR, holdsKey, KeyCheck, redactedQuery, redactHeaders, redactUrl, redactValue } from './log-redaction';

export const REQUEST_ID_HEADER = 'x-request-id';
// An incoming id is honoured only if it is short and plain, so it cannot bloat or forge log lines, and
// holds no API key: a key pasted into the wrong header would otherwise be logged as req.id.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

// Secrets at fixed places; request fields are redacted by name and shape in serializeRequest.
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

interface SerializedRequest {
  url?: string;
  query?: unknown;
  params?: Record<string, unknown>;
  headers: Record<string, unknown>;
  [field: string]: unknown;
}

// Every log line about a request (its completion line, and any logged while handling it) shows it through
// this: a key sent in the wrong place (?api_key=, an x_api_key header) never reaches the log.
// `isKey` recognises the keys the server knows, whatever their form (known-api-keys.ts).
export function serializeRequest(req: SerializedRequest, isKey?: KeyCheck): SerializedRequest {
  const url = typeof req.url === 'string' ? req.url : '';
  const params = Object.fromEntries(
    Object.entries(req.params ?? {}).map(([name, value]) => [name, redactValue(String(value), isKey)]),
  );
  return {
    ...req,
    url: redactUrl(url, isKey),
    query: redactedQuery(url, isKey),
    params,
    headers: redactHeaders(req.headers ?? {}, isKey),
  };
}

// The shape of every JSON log line, the server's and the command-line tools' (cli-logger.ts).
export function logLineOptions(level: string): pino.LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
}

// The root logger: JSON lines on stdout; pretty only for a developer at a terminal.
export function createRootLogger(config: AppConfig, destination?: DestinationStream): Logger {
  const options = logLineOptions(config.logLevel);
  if (!destination && config.nodeEnv === 'development' && process.stdout.isTTY && hasPinoPretty()) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { singleLine: true } } });
  }
  // Synchronous stdout: lines stay in order and none is lost when the process exits after a shutdown.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}

// Nest's Logger writing through the root logger: set before the first start-up line, so the whole
// log is in one format (not Nest's coloured text until the app exists, then JSON).
export function nestLoggerFor(logger: Logger): LoggerService {
  const params: Params = { pinoHttp: { logger }, useExisting: true };
  return new PinoNestLogger(new PinoLogger(params), params);
}

function hasPinoPretty(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false; // a dev dependency: absent in production images
  }
}

export function requestId(req: IncomingMessage, res: ServerResponse, isKey?: KeyCheck): string {
  const header = req.headers[REQUEST_ID_HEADER];
  const incoming = Array.isArray(header) ? header[0] : header;
  const id = incoming && REQUEST_ID.test(incoming) && !holdsKey(incoming, isKey) ? incoming : randomUUID();
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
