import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, RequestException, RequestExceptionCode } from './app-exception';
import { rawSecurityHeaderLines } from './security-headers';

// Bounds on what a client may make the HTTP server hold before any route runs.
export const HTTP_LIMITS = {
  maxHeaderBytes: 8 * 1024, // all request headers together (Node's default is 16 KB)
  maxHeadersCount: 100,
  headersTimeoutMs: 10_000, // slow-header (slowloris) clients are cut off
  requestTimeoutMs: 30_000, // the whole request, body included
  keepAliveTimeoutMs: 5_000,
} as const;

export function applyHttpServerLimits(server: Server): void {
  // Node reads this property for every new connection (it hands it to the parser), so setting it on
  // the server Nest already created works like the createServer option; a test guards it.
  (server as Server & { maxHeaderSize?: number }).maxHeaderSize = HTTP_LIMITS.maxHeaderBytes;
  server.maxHeadersCount = HTTP_LIMITS.maxHeadersCount;
  server.headersTimeout = HTTP_LIMITS.headersTimeoutMs;
  server.requestTimeout = HTTP_LIMITS.requestTimeoutMs;
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
      rawSecurityHeaderLines() +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
