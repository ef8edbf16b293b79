/**
 * The dashboard's live feed, `GET /__admin/requests/events`, over a real node:http server: every
 * world's exchanges as Server-Sent Events, redacted as the journal is; at most eight streams; a
 * reader that falls a mebibyte behind is told to refetch and let go; and a closing server ends its
 * streams instead of waiting for them.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningPetStore } from '../../runtimes/node/index.ts';
import { createContractChecker } from '../contract/checker.ts';
import { TOKEN } from '../helpers/admin-server.ts';
import { KEY } from '../helpers/server.ts';

/** The feed's path below /__admin. */
const EVENTS = '/requests/events';
const asAdmin = { authorization: `Bearer ${TOKEN}` };

const running: RunningPetStore[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** A server with the admin API on, its origin, and `admin(path, init)`: a fetch of `/__admin<path>` with the token. */
async function adminOn(options: { maxBodyBytes?: number; shutdownTimeoutMs?: number } = {}) {
  const server = await serve({
    port: 0,
    onError: () => {},
    admin: { token: TOKEN },
    apiKeys: { [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 } },
    ...options,
  });
  running.push(server);
  const { origin } = new URL(server.url);
  const admin = (path: string, init: RequestInit = {}) => fetch(`${origin}/__admin${path}`, { ...init, headers: { ...asAdmin, ...(init.headers as object) } });
  return { server, origin, admin };
}

/** Reads a stream's text event by event: `next()` is the next event (or comment) block, `undefined` once the stream ended. */
function eventsOf(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    async next(): Promise<string | undefined> {
      while (!text.includes('\n\n')) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        text += value;
      }
      const end = text.indexOf('\n\n');
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      return block;
    },
    /** The next `event: exchange`, its data parsed; comments (the opening, heartbeats) passed over. */
    async exchange(): Promise<{ sandbox: string | null; exchange: Record<string, unknown> }> {
      for (let block = await this.next(); block !== undefined; block = await this.next()) {
        if (block.startsWith('event: exchange\n')) return JSON.parse(block.slice('event: exchange\ndata: '.length));
      }
      throw new Error('the stream ended');
    },
    cancel: () => reader.cancel(),
  };
}

describe('GET /__admin/requests/events', () => {
  it('streams an exchange of the main world and one of a sandbox, each exactly as its journal keeps it, keys redacted', async () => {
    const { origin, admin } = await adminOn();
    const response = await admin(EVENTS);
    expect([response.status, response.headers.get('content-type'), response.headers.get('cache-control')]).toEqual([200, 'text/event-stream', 'no-store']);
    const document = await (await admin('/openapi.json')).json();
    expect(createContractChecker(document)({ method: 'GET', path: `/__admin${EVENTS}`, status: 200, headers: response.headers, body: '' })).toEqual([]);
    const events = eventsOf(response);
    expect(await events.next()).toBe(': petstore-service exchanges');

    await fetch(`${origin}/v1/pets?limit=2`, { headers: { authorization: `Bearer ${KEY}` } });
    const { id, keys } = await (await admin('/sandboxes', { method: 'POST' })).json();
    await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    const main = await events.exchange();
    const inSandbox = await events.exchange();
    await events.cancel();

    expect(main).toEqual({ sandbox: null, exchange: (await (await admin('/requests')).json())[0] });
    expect(inSandbox).toEqual({ sandbox: id, exchange: (await (await admin(`/sandboxes/${id}/requests`)).json())[0] });
    expect([main.exchange.path, main.exchange.status, inSandbox.exchange.method, inSandbox.exchange.status]).toEqual(['/v1/pets', 200, 'POST', 201]);
    const told = JSON.stringify([main, inSandbox]);
    for (const secret of [KEY, keys.pro, TOKEN]) expect(told).not.toContain(secret);
    expect((main.exchange.requestHeaders as Record<string, string>).authorization).toBe('Bearer [redacted]');
  });

  it('needs the admin token: without it a 401, and HEAD answers the stream’s headers with no body', async () => {
    const { origin, admin } = await adminOn();
    const refused = await fetch(`${origin}/__admin${EVENTS}`);
    expect([refused.status, (await refused.json()).code]).toEqual([401, 'unauthorized']);
    const head = await admin(EVENTS, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'text/event-stream', '']);
  });

  it('keeps at most eight streams open: the ninth is a JSON 503 with Retry-After, and a stream its reader left makes room again', async () => {
    const { admin } = await adminOn();
    const open = await Promise.all(Array.from({ length: 8 }, () => admin(EVENTS)));
    expect(open.map((response) => response.status)).toEqual(Array(8).fill(200));
    const ninth = await admin(EVENTS);
    expect([ninth.status, ninth.headers.get('retry-after'), (await ninth.json()).code]).toEqual([503, '15', 'service_unavailable']);

    await open[0]!.body!.cancel();
    // The server hears of the closed connection on its own time: ask again until it has.
    let again = await admin(EVENTS);
    for (let tries = 0; again.status === 503 && tries < 500; tries++) again = await admin(EVENTS);
    expect(again.status).toBe(200);
    await Promise.all([again, ...open.slice(1)].map((response) => response.body!.cancel()));
  });

  it('tells a reader more than a mebibyte behind to refetch (event: overflow) and ends its stream, holding no more', async () => {
    const { server, origin } = await adminOn({ maxBodyBytes: 1024 * 1024 });
    const { port } = new URL(server.url);
    // A reader that reads nothing: node:http stops taking bytes from the socket once its buffer is full.
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const sent = httpRequest({ host: '127.0.0.1', port, path: `/__admin${EVENTS}`, headers: asAdmin, agent: false }, resolve);
      sent.on('error', reject);
      sent.end();
    });
    response.pause();
    // Sixteen exchanges of a mebibyte each: more than the socket's buffers on both sides and the stream's own mebibyte.
    const upload = 'x'.repeat(1024 * 1024 - 1);
    for (let i = 0; i < 16; i++) {
      const answered = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: upload,
      });
      expect(answered.status).toBe(400);
    }
    response.setEncoding('utf8');
    let text = '';
    response.on('data', (chunk: string) => (text += chunk));
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    const blocks = text.split('\n\n').filter((block) => block !== '');
    expect(blocks.at(-1)).toBe('event: overflow\ndata: {}');
    expect(blocks.filter((block) => block.startsWith('event: exchange\n')).length).toBeLessThan(16);
  });

  it('ends when the server closes, so close() returns while a reader is still reading', async () => {
    // A minute of grace for in-flight requests: a stream waited for would hold the close past the test's time.
    const { server, admin } = await adminOn({ shutdownTimeoutMs: 60_000 });
    const events = eventsOf(await admin(EVENTS));
    expect(await events.next()).toBe(': petstore-service exchanges');
    running.splice(0);
    await server.close();
    // Cut, as an event stream ends: the reader sees its end or an error, never a wait.
    expect(await events.next().catch(() => undefined)).toBeUndefined();
  }, 30_000);
});
