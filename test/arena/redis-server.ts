/** A private redis-server for the queue tests: a free loopback port, no persistence, stopped after. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { HANG_MS } from '../patience.ts';

/** Whether `redis-server` is installed (CI's `.ci/run` installs it). */
export const HAVE_REDIS = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something answers PING on the port, after AUTH when there is a password (or rejects after `ms`). */
async function waitForPing(port: number, password: string | null, ms = HANG_MS): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once('error', () => resolve(false));
      s.connect(port, '127.0.0.1', () => s.write(`${password === null ? '' : `AUTH ${password}\r\n`}PING\r\n`));
      let got = '';
      s.on('data', (d) => {
        got += d.toString();
        if (got.split('\r\n').length <= (password === null ? 1 : 2)) return;
        s.destroy();
        resolve(got.endsWith('+PONG\r\n'));
      });
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server on port ${port} did not answer`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A redis-server this test started: `stop` and `start` again on the same port simulate a restart. */
export class TestRedis {
  readonly port: number;
  /** The password clients must give (`requirepass`), or null. */
  readonly password: string | null;
  #child: ChildProcess | null = null;

  private constructor(port: number, password: string | null) {
    this.port = port;
    this.password = password;
  }

  /** The server's URL, with its password when it has one. */
  get url(): string {
    return `redis://${this.password === null ? '' : `:${this.password}@`}127.0.0.1:${this.port}`;
  }

  /** Starts a server on a free port (asking clients for `password` when one is given). */
  static async start(password: string | null = null): Promise<TestRedis> {
    const r = new TestRedis(await freePort(), password);
    await r.start();
    return r;
  }

  /** (Re)starts the server on its port, empty: no persistence, as a restart without a dump loses everything. */
  async start(): Promise<void> {
    const auth = this.password === null ? [] : ['--requirepass', this.password];
    this.#child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth], { stdio: 'ignore' });
    await waitForPing(this.port, this.password);
  }

  /** Stops the server and waits for it to exit. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
