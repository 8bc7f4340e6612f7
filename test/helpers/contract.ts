import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator';
import type { IHttpOperation } from '@stoplight/types';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';

const PRISM_CLI = require.resolve('@stoplight/prism-cli/dist/index.js');
// Under jest's 60 s hook timeout, which the beforeAll that starts it runs under.
const PRISM_START_MS = 55_000;

// The e2e tests talk to the app through Stoplight Prism in proxy mode with --errors, so any response
// that breaks the served OpenAPI document fails the test. Prism answers a few requests itself instead
// of forwarding them; those go straight to the app and are checked with Prism's own validator:
//  - no x-api-key on a secured route (Prism's CLI always checks security and answers 401 itself),
//  - malformed JSON or a JSON scalar body (Prism parses the body and forwards its re-serialization),
//  - routes or methods the document does not have (Prism answers 404/405 itself).
// Prism takes seconds to start, so one instance serves a whole test file: it forwards to a small
// relay whose target is whichever app the file attached last (`use`).
export class ContractProxy {
  private prism?: ChildProcess;
  private prismUrl?: string;
  private document?: string;
  private operations: IHttpOperation[] = [];
  private readonly violations: string[] = [];
  private readonly apps: NestExpressApplication[] = [];
  private target?: string;
  private relay?: Server;
  private dir = mkdtempSync(join(tmpdir(), 'lis-contract-'));

  // patchDocument exists for the harness's own tests (proving that a broken contract is caught).
  constructor(private readonly patchDocument: (document: any) => void = () => undefined) {}

  /** Requests through Prism to the current app. */
  get http(): TestAgent {
    if (!this.prismUrl) throw new Error('call use(app) first');
    return request.agent(this.prismUrl).use((req: request.Test) => {
      req.on('response', (res: request.Response) => this.record(req.method, req.url, res));
    });
  }

  /** Requests straight to the current app; check their responses with `checkDirect`. */
  get direct(): TestAgent {
    if (!this.target) throw new Error('call use(app) first');
    return request.agent(this.target);
  }

  /** Routes requests to this app from now on; closed by close(). */
  async use(app: NestExpressApplication): Promise<void> {
    await app.listen(0, '127.0.0.1');
    this.apps.push(app);
    this.target = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const served = (await request(this.target).get('/openapi.json').expect(200)).body;
    this.patchDocument(served);
    const document = JSON.stringify(served);
    if (this.document === undefined) {
      this.document = document;
      await this.startPrism();
    } else if (document !== this.document) {
      throw new Error('this app serves a different OpenAPI document; the document must not depend on configuration');
    }
  }

  /** Validates a response that bypassed Prism against the document. */
  checkDirect(method: string, path: string, res: Pick<request.Response, 'status' | 'headers' | 'body'>): void {
    const problems = validateDirect(this.operations, method, path, res);
    this.violations.push(...problems.map((p) => `${method} ${path} -> ${res.status} (direct): ${p}`));
  }

  /** Every violation seen so far (cleared on read); tests assert it is empty after each case. */
  takeViolations(): string[] {
    return this.violations.splice(0);
  }

  async close(): Promise<void> {
    const prism = this.prism;
    if (prism && prism.exitCode === null) {
      const exited = new Promise((resolve) => prism.once('exit', resolve));
      prism.kill('SIGTERM');
      await exited;
    }
    await new Promise((resolve) => (this.relay ? this.relay.close(resolve) : resolve(null)));
    for (const app of this.apps.splice(0)) await app.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private record(method: string, url: string, res: request.Response): void {
    if (res.headers['sl-violations'])
      this.violations.push(`${method} ${url} -> ${res.status}: ${res.headers['sl-violations']}`);
    if (/^application\/problem\+json/.test(res.headers['content-type'] ?? '')) {
      this.violations.push(`${method} ${url} -> ${res.status} answered by Prism: ${res.text}`);
    }
  }

  private async startPrism(): Promise<void> {
    const documentPath = join(this.dir, 'openapi.json');
    writeFileSync(documentPath, this.document!);
    this.operations = await getHttpOperationsFromSpec(documentPath);
    const relayUrl = await this.startRelay();
    const port = await freePort();
    const prism = spawn(
      process.execPath,
      [
        PRISM_CLI,
        'proxy',
        documentPath,
        relayUrl,
        '--errors',
        '--validate-request=false',
        '--cors=false',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-v',
        'warn',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.prism = prism;
    let output = '';
    prism.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    prism.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    this.prismUrl = `http://127.0.0.1:${port}`;
    await waitUntilListening(prism, this.prismUrl, () => output);
  }

  // Forwards bytes unchanged to the current target.
  private async startRelay(): Promise<string> {
    this.relay = createHttpServer((req, res) => {
      const target = new URL(this.target!);
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.rawHeaders);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.relay!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.relay.address() as AddressInfo).port}`;
  }
}

// One app behind its own proxy: the common case.
export async function startContractProxy(
  app: NestExpressApplication,
  patchDocument?: (document: any) => void,
): Promise<ContractProxy> {
  const contract = new ContractProxy(patchDocument);
  await contract.use(app);
  return contract;
}

function validateDirect(
  operations: IHttpOperation[],
  method: string,
  path: string,
  res: Pick<request.Response, 'status' | 'headers' | 'body'>,
): string[] {
  const element = { statusCode: res.status, headers: res.headers as Record<string, string>, body: res.body };
  let operation = operations.find((o) => o.method === method.toLowerCase() && matchesPath(o.path, path));
  if (!operation) {
    // No operation to check against (unknown route or method): the shared error shape must still hold.
    const base = operations
      .flatMap((o) => o.responses)
      .flatMap((r) => r.contents ?? [])
      .map((c) => (c.schema as { allOf?: object[] } | undefined)?.allOf?.[0])
      .find(Boolean);
    if (!base) return ['the document has no error schema'];
    operation = {
      ...operations[0],
      responses: [
        {
          id: 'direct',
          code: String(res.status),
          headers: [],
          contents: [{ id: 'direct', mediaType: 'application/json', schema: base }],
        },
      ],
    } as IHttpOperation;
  }
  const result = validateOutput({ resource: operation, element });
  return result._tag === 'Left' ? result.left.map((d) => d.message) : [];
}

function matchesPath(template: string, path: string): boolean {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(path.split('?')[0]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createHttpServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilListening(prism: ChildProcess, url: string, output: () => string): Promise<void> {
  // Generous: on a busy 2-core machine Prism (a Node CLI) has taken over 30 s to start.
  const deadline = Date.now() + PRISM_START_MS;
  while (Date.now() < deadline) {
    if (prism.exitCode !== null) throw new Error(`Prism exited with ${prism.exitCode}:\n${output()}`);
    try {
      await fetch(`${url}/health/live`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  prism.kill('SIGKILL');
  throw new Error(`Prism did not start within ${PRISM_START_MS / 1000} s:\n${output()}`);
}
