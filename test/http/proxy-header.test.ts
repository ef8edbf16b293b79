/** Behind a proxy, on a real node:http server: only the header chosen is believed, so a header the client wrote cannot pick its own rate-limit bucket. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../compose/index.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const NOW = Date.parse('2026-11-22T10:00:00Z');

/** The statuses of `count` keyless requests, the i-th with the headers `headersFor(i)` gives. */
async function keylessStatuses(server: TestServer, count: number, headersFor: (i: number) => Record<string, string>): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${server.url}/pets`, { headers: headersFor(i) });
    await response.body?.cancel();
    statuses.push(response.status);
  }
  return statuses;
}

/** 60 × 401 (the anonymous minute budget), then 429 for the rest. */
const limitedAfter60 = (count: number) => [...Array<number>(60).fill(401), ...Array<number>(count - 60).fill(429)];

describe('the proxy header behind trustProxy', () => {
  it('ignores a Forwarded header the client wrote by default: 80 keyless requests through a proxy appending X-Forwarded-For get 60 × 401, then 429', async () => {
    const server = await startServer({ trustProxy: 1, now: () => NOW });
    // nginx: proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; Forwarded passed on as the client wrote it.
    const statuses = await keylessStatuses(server, 80, (i) => ({ 'x-forwarded-for': '203.0.113.9', forwarded: `for=198.51.100.${i}` }));
    expect(statuses).toEqual(limitedAfter60(80));
  });

  it("with proxyHeader forwarded, believes the proxy's Forwarded and ignores an X-Forwarded-For the client wrote: 60 × 401, then 429", async () => {
    const server = await startServer({ trustProxy: 1, proxyHeader: 'forwarded', now: () => NOW });
    const statuses = await keylessStatuses(server, 80, (i) => ({ forwarded: 'for=203.0.113.9', 'x-forwarded-for': `198.51.100.${i}` }));
    expect(statuses).toEqual(limitedAfter60(80));
  });

  it('ends the trust at a hop that is no address: the caller is the proxy that forwarded it, and its text reaches no hook', async () => {
    const exchanges: Exchange[] = [];
    const server = await startServer({ trustProxy: 1, now: () => NOW, onResponse: (exchange) => void exchanges.push(exchange) });
    const statuses = await keylessStatuses(server, 61, (i) => ({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.5 (admin login ok)` }));
    expect(statuses).toEqual(limitedAfter60(61));
    expect(new Set(exchanges.map(({ clientAddress }) => clientAddress))).toEqual(new Set(['127.0.0.1']));
  });
});
