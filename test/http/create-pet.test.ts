/** POST /v1/pets on a real server: validation, media types, byte limits, concurrency, failures. */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { PetStorage } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { expectError, KEY, postPet, startServer } from '../helpers/server.ts';

describe('POST /v1/pets', () => {
  it('creates a pet with id 1, answers 201 with the pet and its Location', async () => {
    const server = await startServer();
    const response = await postPet(server, { name: 'Rex', categoryId: 3, status: 'available' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('location')).toBe('/v1/pets/1');
    expect(await response.json()).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
  });

  it('stores a pet without status when none is sent, and lists it that way', async () => {
    const server = await startServer();
    expect(await (await postPet(server, { name: 'Tom', categoryId: 1 })).json()).toEqual({
      id: 1,
      name: 'Tom',
      categoryId: 1,
    });
    expect(await (await server.api('/pets')).json()).toEqual([{ id: 1, name: 'Tom', categoryId: 1 }]);
  });

  it('applies the defaultStatus option when the body names no status', async () => {
    const server = await startServer({ defaultStatus: 'pending' });
    const pet = await (await postPet(server, { name: 'Tom', categoryId: 1 })).json();
    expect(pet.status).toBe('pending');
    const sold = await (await postPet(server, { name: 'Ann', categoryId: 1, status: 'sold' })).json();
    expect(sold.status).toBe('sold');
  });

  it('ignores unknown fields, id included: not stored, not echoed', async () => {
    const server = await startServer();
    const pet = await (await postPet(server, { id: 77, name: 'Rex', categoryId: 1, color: 'red' })).json();
    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expect(await (await server.api('/pets/1')).json()).toEqual(pet);
  });

  it('accepts categoryId at the edges of the safe integer range, negative and zero included', async () => {
    const server = await startServer();
    for (const categoryId of [2 ** 53 - 1, -(2 ** 53 - 1), 0]) {
      const response = await postPet(server, { name: 'Edge', categoryId });
      expect(response.status).toBe(201);
      expect((await response.json()).categoryId).toBe(categoryId);
    }
  });

  it.each([
    ['9007199254740992', '2^53'],
    ['9007199254740993', '2^53+1, which JSON.parse would round'],
    ['-9007199254740992', '-2^53'],
    ['1e300', 'a huge number'],
    ['1.5', 'a fraction'],
    ['"3"', 'a string'],
    ['null', 'null'],
  ])('rejects categoryId %s (%s) with 400 naming categoryId, storing nothing', async (raw) => {
    const server = await startServer();
    const body = await expectError(await postPet(server, `{"name":"Rex","categoryId":${raw}}`), 400, 'invalid_request');
    expect(body.details?.map((d) => d.field)).toEqual(['categoryId']);
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('lists every missing field as "is required"', async () => {
    const server = await startServer();
    const body = await expectError(await postPet(server, {}), 400, 'invalid_request');
    expect(body.details).toEqual([
      { field: 'name', message: 'is required' },
      { field: 'categoryId', message: 'is required' },
    ]);
  });

  it.each([
    [{ name: '', categoryId: 1 }, 'name', 'must not be empty'],
    [{ name: 5, categoryId: 1 }, 'name', 'must be a string'],
    [{ name: 'Rex\uD800', categoryId: 1 }, 'name', 'must be well-formed Unicode text'],
    [{ name: '\uDC00Rex', categoryId: 1 }, 'name', 'must be well-formed Unicode text'],
    [{ name: 'Rex', categoryId: 1, status: 'lost' }, 'status', 'must be one of available, pending, sold'],
    [{ name: 'Rex', categoryId: 1, status: null }, 'status', 'must be one of available, pending, sold'],
  ])('rejects %j with 400 naming %s', async (pet, field, message) => {
    const server = await startServer();
    const body = await expectError(await postPet(server, pet), 400, 'invalid_request');
    expect(body.details).toEqual([{ field, message }]);
  });

  it.each([
    ['{"name":"Rex",', 'truncated JSON'],
    ['[{"name":"Rex","categoryId":1}]', 'an array'],
    ['"Rex"', 'a string'],
    ['null', 'null'],
    ['42', 'a number'],
    ['', 'an empty body'],
    ['   ', 'only whitespace'],
  ])('rejects %j (%s) with 400 invalid_request', async (raw) => {
    const server = await startServer();
    await expectError(await postPet(server, raw), 400, 'invalid_request');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('rejects a body with a "%s" key, at any depth or escaped, and no prototype is touched', async (key) => {
    const server = await startServer();
    const top = `{"name":"Rex","categoryId":1,"${key}":{"polluted":true}}`;
    const nested = `{"name":"Rex","categoryId":1,"x":{"${key}":{"polluted":true}}}`;
    // The key spelt with an escape (\u005f for "_", \u0063 for "c"…) is the same key.
    const escaped = `{"name":"Rex","categoryId":1,"\\u00${key.charCodeAt(0).toString(16)}${key.slice(1)}":{"polluted":true}}`;
    for (const raw of [top, nested, escaped]) {
      const body = await expectError(await postPet(server, raw), 400, 'invalid_request');
      expect(body.details?.[0]?.field).toBe(key);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await (await server.api('/pets')).json()).toEqual([]);
  });

  it('accepts unknown fields nested 32 levels deep and rejects 33 with a 400 naming the limit', async () => {
    const server = await startServer();
    const nestedIn = (levels: number) => `{"name":"Rex","categoryId":1,"x":${'['.repeat(levels - 1)}"[{"${']'.repeat(levels - 1)}}`;
    expect((await postPet(server, nestedIn(32))).status).toBe(201);
    const body = await expectError(await postPet(server, nestedIn(33)), 400, 'invalid_request');
    expect(body.message).toBe('The request body nests arrays or objects deeper than 32 levels.');
    const deep = await expectError(await postPet(server, '['.repeat(60_000)), 400, 'invalid_request');
    expect(deep.message).toContain('deeper than 32 levels');
  });

  it('rejects bytes that are not UTF-8 with 400 invalid_request', async () => {
    const server = await startServer();
    const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, 0xfe, ...new TextEncoder().encode('","categoryId":1}')]);
    await expectError(await postPet(server, undefined, { body: bytes }), 400, 'invalid_request');
  });

  it('accepts unicode names and stores them exactly', async () => {
    const server = await startServer();
    const name = 'Ñandú 🐕 名前';
    expect((await (await postPet(server, { name, categoryId: 1 })).json()).name).toBe(name);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'])(
    'rejects Content-Type %s with 415 unsupported_media_type',
    async (type) => {
      const server = await startServer();
      const response = await server.api('/pets', {
        method: 'POST',
        headers: { 'content-type': type },
        body: '{"name":"Rex","categoryId":1}',
      });
      await expectError(response, 415, 'unsupported_media_type');
    },
  );

  it('rejects a body without Content-Type with 415 unsupported_media_type', async () => {
    const server = await startServer();
    const response = await server.api('/pets', { method: 'POST', body: new Blob(['{"name":"Rex","categoryId":1}']) });
    await expectError(response, 415, 'unsupported_media_type');
  });

  it.each(['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json'])('accepts Content-Type %s', async (type) => {
    const server = await startServer();
    const response = await postPet(server, { name: 'Rex', categoryId: 1 }, { headers: { 'content-type': type } });
    expect(response.status).toBe(201);
  });

  describe('body size limit', () => {
    /** A valid body of exactly `bytes` bytes, padded with a 3-byte character in an unknown field (a name that long is refused). */
    function bodyOfBytes(bytes: number): string {
      const base = '{"name":"Rex","categoryId":1,"note":""}';
      const room = bytes - base.length;
      const note = '€'.repeat(Math.floor(room / 3)) + 'a'.repeat(room % 3);
      const body = `{"name":"Rex","categoryId":1,"note":"${note}"}`;
      expect(new TextEncoder().encode(body).byteLength).toBe(bytes);
      return body;
    }

    it('accepts a body of exactly maxBodyBytes, counting bytes, not characters', async () => {
      const server = await startServer({ maxBodyBytes: 1000 });
      expect((await postPet(server, bodyOfBytes(1000))).status).toBe(201);
    });

    it('refuses a body one byte over maxBodyBytes with 413 payload_too_large', async () => {
      const server = await startServer({ maxBodyBytes: 1000 });
      await expectError(await postPet(server, bodyOfBytes(1001)), 413, 'payload_too_large');
      expect(await (await server.api('/pets')).json()).toEqual([]);
    });

    it('refuses a 64 KiB + 1 byte body by default', async () => {
      const server = await startServer();
      await expectError(await postPet(server, bodyOfBytes(64 * 1024 + 1)), 413, 'payload_too_large');
      expect((await postPet(server, bodyOfBytes(64 * 1024))).status).toBe(201);
    });

    it('refuses a chunked body as soon as it passes the limit, without reading the rest', async () => {
      const server = await startServer({ maxBodyBytes: 1024 });
      let pulled = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new TextEncoder().encode('{"name":"' + 'x'.repeat(500)));
          if (pulled > 10_000) controller.close();
        },
      });
      const response = await postPet(server, undefined, { body: endless, duplex: 'half' } as RequestInit);
      await expectError(response, 413, 'payload_too_large');
      expect(pulled).toBeLessThan(10_000);
    });

    it('refuses Content-Length: 1000000000 before reading the body', async () => {
      const server = await startServer();
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${server.url}/pets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': '1000000000' },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.write('{"name":"Rex"');
      });
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ code: 'payload_too_large', status: 413 });
    });
  });

  it('gives 1,000 concurrent creates the ids 1..1000, each exactly once', async () => {
    const server = await startServer();
    const responses = await Promise.all(Array.from({ length: 1000 }, (_, i) => postPet(server, { name: `pet ${i}`, categoryId: i })));
    expect(responses.every((r) => r.status === 201)).toBe(true);
    const ids = (await Promise.all(responses.map((r) => r.json()))).map((p) => p.id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    // A safety net for a busy machine: the default 20 s ran out in a full run.
  }, 120_000);

  it('answers 500 internal_error when storage fails, leaves no pet, and keeps serving', async () => {
    const inner = memoryPetStorage();
    let failNext = true;
    const errors: unknown[] = [];
    const storage: PetStorage = {
      ...inner,
      async create(pet) {
        if (failNext) {
          failNext = false;
          throw new Error('disk on fire at /var/lib/secret');
        }
        return inner.create(pet);
      },
    };
    const server = await startServer({ storage, onError: (error) => errors.push(error) });
    const body = await expectError(await postPet(server, { name: 'Rex', categoryId: 1 }), 500, 'internal_error');
    expect(body.message).not.toMatch(/disk|secret|Error:/);
    expect(errors).toHaveLength(1);
    expect(await (await server.api('/pets')).json()).toEqual([]);
    expect(await (await postPet(server, { name: 'Rex', categoryId: 1 })).json()).toMatchObject({ id: 1 });
  });
});
