/** Idempotency-Key on POST /pets: retries are safe, reuse with another body is refused, keys expire. */
import { describe, expect, it } from 'vitest';
import { expectError, KEY, postPet, startServer } from '../helpers/server.ts';
import { manualClock } from '../../testing/index.ts';

const withKey = (key: string, extra: Record<string, string> = {}) => ({ headers: { 'idempotency-key': key, ...extra } });

describe('Idempotency-Key', () => {
  it('replays the first pet for a retry with the same key and body: same id, 201, Idempotent-Replayed', async () => {
    const server = await startServer();
    const first = await postPet(server, { name: 'Rex', categoryId: 1 }, withKey('order-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const pet = await first.json();
    const retry = await postPet(server, { categoryId: 1, name: 'Rex', ignored: true }, withKey('order-1'));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
    expect(await retry.json()).toEqual(pet);
    expect(await (await server.api('/pets')).json()).toEqual([pet]);
  });

  it('answers 422 idempotency_key_reused when the same key comes with another body, storing nothing', async () => {
    const server = await startServer();
    await postPet(server, { name: 'Rex', categoryId: 1 }, withKey('order-2'));
    await expectError(await postPet(server, { name: 'Max', categoryId: 1 }, withKey('order-2')), 422, 'idempotency_key_reused');
    expect(await (await server.api('/pets')).json()).toHaveLength(1);
  });

  it('creates exactly one pet for 20 concurrent requests with one key', async () => {
    const server = await startServer();
    const responses = await Promise.all(Array.from({ length: 20 }, () => postPet(server, { name: 'Rex', categoryId: 1 }, withKey('burst'))));
    const ids = new Set(await Promise.all(responses.map(async (r) => (await r.json()).id)));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await (await server.api('/pets')).json()).toHaveLength(1);
  });

  it('forgets a key after 24 hours by the configured clock', async () => {
    const clock = manualClock('2026-11-22T10:00:00Z');
    const server = await startServer({ now: clock.now });
    const first = await (await postPet(server, { name: 'Rex', categoryId: 1 }, withKey('daily'))).json();
    clock.advance(24 * 3_600_000 - 1);
    expect((await (await postPet(server, { name: 'Rex', categoryId: 1 }, withKey('daily'))).json()).id).toBe(first.id);
    clock.advance(1);
    const later = await postPet(server, { name: 'Rex', categoryId: 1 }, withKey('daily'));
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect((await later.json()).id).toBe(first.id + 1);
  });

  it('keeps keys apart per API key', async () => {
    const server = await startServer({ apiKeys: { [KEY]: 'pro', other: 'pro' } });
    const a = await (await postPet(server, { name: 'Rex', categoryId: 1 }, withKey('shared'))).json();
    const b = await (await postPet(server, { name: 'Max', categoryId: 2 }, withKey('shared', { authorization: 'Bearer other' }))).json();
    expect(b.id).not.toBe(a.id);
  });

  it.each(['', ' spaced key', 'ü', 'x'.repeat(256)])('rejects the Idempotency-Key %j with 400 naming the header', async (key) => {
    const server = await startServer();
    const response = await server.api('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: '{"name":"Rex","categoryId":1}',
    });
    const body = await expectError(response, 400, 'invalid_request');
    expect(body.details?.[0]?.field).toBe('Idempotency-Key');
  });
});
