/**
 * One redaction for every world, over HTTP on a real node:http server with the admin API on: a
 * sandbox's journal hides the main world's keys and the admin token as the main journal does, in
 * every spelling, and a key cut by the body limit leaves none of its characters. Every admin answer
 * here is checked against the admin document the server serves (test/helpers/admin-server.ts).
 */
import { describe, expect, it } from 'vitest';
import { adminServer, FREE, json, TOKEN } from '../helpers/admin-server.ts';
import { KEY } from '../helpers/server.ts';

/** Every character of `text` percent-encoded twice (`%2574`). */
const twice = (text: string) => [...text].map((c) => `%25${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

describe('redaction in every world', () => {
  it("keeps the main world's keys and the admin token out of every field of a sandbox's journal", async () => {
    const server = await adminServer();
    const { id, keys } = await (await server.admin('/sandboxes', json({}))).json();
    for (const secret of [KEY, FREE, TOKEN]) {
      const response = await fetch(`${server.url}/pets?x=${encodeURIComponent(secret)}&y=${twice(secret)}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${keys.free}`,
          'x-api-key': secret,
          cookie: `session=${secret}; theme=dark`,
          'x-forwarded-authorization': `Basic ${btoa(`user:${secret}`)}`,
          [secret]: 'a key used as a header name',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: secret, categoryId: 1 }),
      });
      expect(response.status).toBe(201);
    }
    const raw = await (await server.admin(`/sandboxes/${id}/requests`)).text();
    const journal = JSON.parse(raw);
    expect(journal).toHaveLength(3);
    for (const secret of [KEY, FREE, TOKEN]) expect(raw.toLowerCase()).not.toContain(secret.toLowerCase());
    expect(journal[0]).toMatchObject({
      query: 'x=[redacted]&y=[redacted]',
      requestHeaders: {
        authorization: 'Bearer [redacted]',
        'x-api-key': '[redacted]',
        cookie: 'session=[redacted]; theme=dark',
        'x-forwarded-authorization': 'Basic [redacted]',
        '[redacted]': 'a key used as a header name',
      },
      requestBody: '{"name":"[redacted]","categoryId":1}',
    });
  });

  it('leaves none of the characters of a key that the body limit cut in two, in the main world and a sandbox', async () => {
    const server = await adminServer({ maxBodyBytes: 256 });
    const { id, keys } = await (await server.admin('/sandboxes', json({}))).json();
    // The key starts 11 bytes before the limit: its first 11 characters are kept, its last 8 cut.
    const body = `${'x'.repeat(256 - 11)}${KEY}${'y'.repeat(100)}`;
    for (const key of [KEY, keys.free]) {
      const response = await fetch(`${server.url}/pets/1`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` }, body });
      expect(response.status).toBeLessThan(500);
    }
    for (const path of ['/requests', `/sandboxes/${id}/requests`]) {
      const [exchange] = await (await server.admin(path)).json();
      expect(exchange).toMatchObject({ requestBodyTruncated: true, requestBody: `${'x'.repeat(256 - 11)}[redacted]` });
    }
  });
});
