import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_CACHE_CONTROL, errorBody, RequestException, RequestExceptionCode } from './app-exception';
import { rawSecurityHeaderLines } from './security-headers';

// Bounds on what a client may make the HTTP server hold before any route runs; the time a request may
// take to arrive is configured (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS).
export const HTTP_LIMITS = {
  maxHeaderBytes: 8 * 1024, // all request headers together (Node's default is 16 KB)
  maxHeadersCount: 100,
  keepAliveTimeoutMs: 5_000,
} as const;

export interface HttpTimeouts {
  /** Slow-header (slowloris) clients are cut off past this. */
  httpHeadersTimeoutMs: number;
  /** The whole request, body included. */
  httpRequestTimeoutMs: number;
}

// Node does not time each connection: it looks for expired ones on a timer (connectionsCheckingInterval,
// 30 s by default), so a client was cut off up to 30 s after its timeout. Looked for at a tenth of the
// shorter timeout, at most once a second: a client is cut off at most that much late.
export function connectionsCheckingIntervalMs(timeouts: HttpTimeouts): number {
  return Math.min(1000, Math.floor(Math.min(timeouts.httpHeadersTimeoutMs, timeouts.httpRequestTimeoutMs) / 10));
}

export function applyHttpServerLimits(server: Server, timeouts: HttpTimeouts): void {
  // Node reads this property for every new connection (it hands it to the parser), so setting it on
  // the server Nest already created works like the createServer option; a test guards it.
  (server as Server & { maxHeaderSize?: number }).maxHeaderSize = HTTP_LIMITS.maxHeaderBytes;
  server.maxHeadersCount = HTTP_LIMITS.maxHeadersCount;
  server.headersTimeout = timeouts.httpHeadersTimeoutMs;
  server.requestTimeout = timeouts.httpRequestTimeoutMs;
  // Read when the server starts listening (its timer starts then), so setting it before listen() counts.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    connectionsCheckingIntervalMs(timeouts);
  server.keepAliveTimeout = HTTP_LIMITS.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);
}

// Requests Node refuses before Express sees them (oversized headers, malformed HTTP, timeouts) get
// the API's error shape and the security headers instead of Node's bare status line.
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const problem =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new RequestException(
          RequestExceptionCode.HEADERS_TOO_LARGE,
          `Request headers must be at most ${HTTP_LIMITS.maxHeaderBytes} bytes`,
        )
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new RequestException(RequestExceptionCode.REQUEST_TIMEOUT, 'The request took too long to arrive')
        : new RequestException(RequestExceptionCode.INVALID_REQUEST, 'Malformed HTTP request');
  const body = JSON.stringify(errorBody(problem));
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Cache-Control: ${ERROR_CACHE_CONTROL}\r\n` +
      rawSecurityHeaderLines() +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
