import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP receiver for webhook deliveries; `answer` decides each response status. */
export class Receiver {
  readonly received: Received[] = [];
  answer: (r: Received, n: number) => number = () => 200;
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const r = { method: req.method!, url: req.url!, headers: req.headers, body };
        this.received.push(r);
        res.statusCode = this.answer(r, this.received.length);
        res.end(res.statusCode >= 400 ? 'receiver says no' : 'ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Waits until `count` requests matching `where` arrived (the sandbox delivers in the background). */
  async waitFor(count: number, where: (r: Received) => boolean = () => true, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hits = this.received.filter(where);
      if (hits.length >= count) return hits;
      if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${hits.length}: ${JSON.stringify(this.received.map((r) => r.headers['x-webhook-event']))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
