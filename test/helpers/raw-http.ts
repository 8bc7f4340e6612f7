import http from 'node:http';
import net from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json?: any;
}

// Starts the app on a random local port: raw requests (any bytes, any headers) need a real socket.
export async function listen(app: NestExpressApplication): Promise<number> {
  await app.listen(0, '127.0.0.1');
  return (app.getHttpServer().address() as net.AddressInfo).port;
}

// Plain node:http, without supertest's conveniences: bodies go out exactly as given.
export function rawRequest(
  port: number,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    agent?: http.Agent;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'POST',
        path: options.path ?? '/search',
        headers: options.headers,
        agent: options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: any;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

// Bytes straight onto a socket, for requests no HTTP client would send.
export function rawSocket(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (c) => (text += c.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

// A client that sends `head` at once, then `drip` every `everyMs` until the server answers or closes:
// what it answered, and after how many milliseconds.
export function trickle(
  port: number,
  head: string,
  drip: string,
  everyMs: number,
): Promise<{ text: string; afterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let answeredAt: number | undefined;
    const timer = setInterval(() => socket.writable && socket.write(drip), everyMs);
    socket.on('data', (c) => {
      answeredAt ??= Date.now();
      text += c.toString('utf8');
    });
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, afterMs: (answeredAt ?? Date.now()) - started });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.write(head);
  });
}
