import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestExpressApplication } from '@nestjs/platform-express';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator';
import type { IHttpOperation } from '@stoplight/types';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';

const PRISM_CLI = require.resolve('@stoplight/prism-cli/dist/index.js');

// The e2e tests talk to the app through Stoplight Prism in proxy mode with --errors, so any response
// that breaks the served OpenAPI document fails the test. Prism answers a few requests itself instead
// of forwarding them; those go straight to the app and are checked with Prism's own validator:
//  - no x-api-key on a secured route (Prism's CLI always checks security and answers 401 itself),
//  - malformed JSON or a JSON scalar body (Prism parses the body and forwards its re-serialization),
//  - routes or methods the document does not have (Prism answers 404/405 itself).
export interface ContractProxy {
  /** Requests through Prism. */
  http: TestAgent;
  /** Requests straight to the app; check their responses with `checkDirect`. */
  direct: TestAgent;
  /** Validates a response that bypassed Prism against the document. */
  checkDirect(method: string, path: string, res: request.Response): void;
  /** Every violation seen so far (cleared on read); tests assert it is empty after each case. */
  takeViolations(): string[];
  close(): Promise<void>;
}

// patchDocument exists for the harness's own tests (proving that a broken contract is caught).
export async function startContractProxy(
  app: NestExpressApplication,
  patchDocument: (document: any) => void = () => undefined,
): Promise<ContractProxy> {
  await app.listen(0, '127.0.0.1');
  const appUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const served = await request(appUrl).get('/openapi.json').expect(200);
  const dir = mkdtempSync(join(tmpdir(), 'lis-contract-'));
  const documentPath = join(dir, 'openapi.json');
  patchDocument(served.body);
  writeFileSync(documentPath, JSON.stringify(served.body));
  const operations = await getHttpOperationsFromSpec(documentPath);

  const port = await freePort();
  const prism = spawn(
    process.execPath,
    [PRISM_CLI, 'proxy', documentPath, appUrl, '--errors', '--validate-request=false', '--cors=false',
      '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  prism.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  prism.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const prismUrl = `http://127.0.0.1:${port}`;
  await waitUntilListening(prism, prismUrl, () => output);

  const violations: string[] = [];
  const record = (method: string, url: string, res: { status: number; headers: Record<string, string>; text?: string }) => {
    if (res.headers['sl-violations']) violations.push(`${method} ${url} -> ${res.status}: ${res.headers['sl-violations']}`);
    if (/^application\/problem\+json/.test(res.headers['content-type'] ?? '')) {
      violations.push(`${method} ${url} -> ${res.status} answered by Prism: ${res.text}`);
    }
  };
  const http = request.agent(prismUrl).use((req: request.Test) => {
    req.on('response', (res: request.Response) => record(req.method, req.url, res));
  });

  return {
    http,
    direct: request.agent(appUrl),
    checkDirect(method, path, res) {
      const problems = validateDirect(operations, method, path, res);
      violations.push(...problems.map((p) => `${method} ${path} -> ${res.status} (direct): ${p}`));
    },
    takeViolations: () => violations.splice(0),
    async close() {
      prism.kill('SIGTERM');
      await new Promise((resolve) => (prism.exitCode !== null ? resolve(null) : prism.once('exit', resolve)));
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function validateDirect(operations: IHttpOperation[], method: string, path: string, res: request.Response): string[] {
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
      responses: [{ id: 'direct', code: String(res.status), headers: [], contents: [{ id: 'direct', mediaType: 'application/json', schema: base }] }],
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
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilListening(prism: ChildProcess, url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
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
  throw new Error(`Prism did not start within 30 s:\n${output()}`);
}
