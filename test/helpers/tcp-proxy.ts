import net from 'node:net';

// A TCP proxy in front of PostgreSQL that a test controls, to cut the database away from a running
// app and give it back:
//   refuse()    closes the port and resets every connection (a stopped server: ECONNREFUSED)
//   blackhole() accepts connections but never answers, and silences open ones (a dead network path)
//   restore()   forwards again on the same port
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private mode: 'forward' | 'blackhole' = 'forward';
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static forUrl(url: string): TcpProxy {
    const u = new URL(url);
    return new TcpProxy(u.hostname, Number(u.port || 5432));
  }

  // The same connection string, through the proxy.
  url(original: string): string {
    const u = new URL(original);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async start(): Promise<void> {
    await this.listen();
  }

  async refuse(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async blackhole(): Promise<void> {
    this.mode = 'blackhole';
    // Open connections go silent too: nothing is forwarded either way, and nobody is told.
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
    if (!this.server) await this.listen();
  }

  async restore(): Promise<void> {
    // Connections that went silent stay silent (as after a real outage); new ones are forwarded.
    this.mode = 'forward';
    if (!this.server) await this.listen();
  }

  async stop(): Promise<void> {
    await this.refuse();
  }

  private listen(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  private accept(client: net.Socket): void {
    this.track(client);
    if (this.mode === 'blackhole') {
      client.pause();
      return;
    }
    const upstream = net.connect(this.targetPort, this.targetHost);
    this.track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
    upstream.on('close', close);
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
  }
}
