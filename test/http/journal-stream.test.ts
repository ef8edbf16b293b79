/**
 * `GET /__admin/requests` sent as a stream on a real node:http server: the JSON array of a journal
 * comes in chunks, never as one string (a full journal of 64 MiB and more would pass V8's string
 * cap), for the main world and a sandbox alike; HEAD says it is JSON and sends nothing. Every admin
 * answer here is checked against the admin document the server serves (test/helpers/admin-server.ts).
 */
import { describe, expect, it } from 'vitest';
import { adminServer, json } from '../helpers/admin-server.ts';

/** What the client received of a response: its headers, how many pieces the body came in, and the body parsed. */
async function received(response: Response) {
  const reader = response.body!.getReader();
  const pieces: Uint8Array[] = [];
  for (let result = await reader.read(); !result.done; result = await reader.read()) pieces.push(result.value);
  const text = Buffer.concat(pieces).toString('utf8');
  return {
    headers: response.headers,
    pieces: pieces.length,
    body: JSON.parse(text) as { method: string; path: string; status: number; requestBody: string }[],
  };
}

/** `count` creates on a path that answers 405 before reading the body, each body `size` bytes: the journal keeps them to the body limit. */
async function fill(send: (init: RequestInit) => Promise<Response>, count: number, size: number) {
  for (let i = 0; i < count; i++) {
    const response = await send({ method: 'POST', headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(size - 2)}"` });
    expect(response.status).toBe(405);
    await response.arrayBuffer();
  }
}

describe('GET /__admin/requests as a stream', () => {
  it('sends the main world’s journal chunked, without a Content-Length, as one JSON array of every exchange', async () => {
    const server = await adminServer();
    await fill((init) => server.api('/pets/1', init), 100, 8 * 1024);
    const { headers, pieces, body } = await received(await server.admin('/requests'));
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('content-length')).toBeNull();
    expect(headers.get('transfer-encoding')).toBe('chunked');
    expect(pieces).toBeGreaterThan(1);
    expect(body).toHaveLength(100);
    expect(body.every((exchange) => exchange.path === '/v1/pets/1' && exchange.status === 405 && exchange.requestBody.length === 8 * 1024)).toBe(true);
    // A filter still applies, and an empty answer is still an array.
    expect((await received(await server.admin('/requests?status=201'))).body).toEqual([]);
    const head = await server.admin('/requests', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(await head.text()).toBe('');
  });

  it('sends a sandbox’s journal the same way, with only its own exchanges', async () => {
    const server = await adminServer();
    const { id, keys } = await (await server.admin('/sandboxes', json({}))).json();
    await fill(
      (init) => server.api('/pets/1', { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${keys.free}` } }),
      40,
      8 * 1024,
    );
    expect((await server.api('/pets')).status).toBe(200);
    const { headers, pieces, body } = await received(await server.admin(`/sandboxes/${id}/requests`));
    expect(headers.get('content-length')).toBeNull();
    expect(pieces).toBeGreaterThan(1);
    expect(body).toHaveLength(40);
    expect(new Set(body.map((exchange) => `${exchange.method} ${exchange.path} ${exchange.status}`))).toEqual(new Set(['POST /v1/pets/1 405']));
    expect((await received(await server.admin('/requests'))).body.map((exchange) => exchange.path)).toEqual(['/v1/pets']);
  });
});
