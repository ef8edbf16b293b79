/** Off the recipes: the Pet Store handed to a framework in a shape it did not expect, or behind a parser that already read the body, answers at once (issue #27). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as honoServe } from '@hono/node-server';
import { bodyParser } from '@koa/bodyparser';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterEach, describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { listenForTest } from '../helpers/server.ts';

const KEY = 'misuse-key-0123456789';
const apiKeys = { [KEY]: 'free' } as const;
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
/** A request that never gets an answer fails the test in this time instead of hanging it. */
const PATIENCE_MS = 3_000;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A request with the key that fails the test rather than waiting forever. */
function call(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(PATIENCE_MS) });
}

const createCat = (url: string) => call(url, { method: 'POST', body: JSON.stringify({ name: 'Tom', categoryId: 1 }) });

/** The API answers under `/api/v1` at `base`: a create, its Location under the prefix, and the list it is in. */
async function expectServedUnderApi(base: string) {
  const created = await createCat(`${base}/api/v1/pets`);
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toMatch(/^\/api\/v1\/pets\/\d+$/);
  const listed = await call(`${base}/api/v1/pets`);
  expect(listed.status).toBe(200);
  expect(await listed.json()).toEqual([expect.objectContaining({ name: 'Tom' })]);
}

/** The Error body of a 500 that names the `body` option. */
async function expectBodyOptionNamed(response: Response) {
  expect(response.status).toBe(500);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as { code: string; message: string; status: number };
  expect(body).toMatchObject({ code: 'internal_error', status: 500 });
  expect(body.message).toMatch(/`body`/);
  return body;
}

describe('a body a parser in front already read, not handed over', () => {
  it('Koa with @koa/bodyparser, then petstore(ctx.req, ctx.res): a create gets a 500 naming the body option at once', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = new Koa();
    app.use(bodyParser());
    app.use(
      mount('/api', (ctx) => {
        ctx.respond = false;
        return petstore(ctx.req, ctx.res, { mountPath: ctx.mountPath });
      }),
    );
    const base = await listenForTest(createServer(app.callback()));
    const body = await expectBodyOptionNamed(await createCat(`${base}/api/v1/pets`));
    expect(body.message).toMatch(/already read/);
  });

  it('Fastify with its JSON parser, then petstore(request.raw, reply.raw): a create gets a 500 naming the body option at once', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = Fastify();
    app.all('/api/*', (request, reply) => petstore(request.raw, reply.hijack().raw, { mountPath: '/api' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    await expectBodyOptionNamed(await createCat(`http://127.0.0.1:${port}/api/v1/pets`));
  });

  it('node:http with a listener that drained the body first: a create gets a 500 naming the body option at once', async () => {
    const petstore = createPetStore({ apiKeys });
    const server = createServer(async (req, res) => {
      for await (const _ of req); // a logger that reads the body and keeps nothing
      await petstore(req, res);
    });
    await expectBodyOptionNamed(await createCat(`${await listenForTest(server)}/v1/pets`));
  });

  it('node:http with a listener that took the first chunk: the rest, short of Content-Length, gets a 500 naming the body option, not a 400 about JSON', async () => {
    const petstore = createPetStore({ apiKeys });
    const server = createServer((req, res) => {
      // Something peeks at the first chunk, then hands the request on with the rest unread.
      req.once('data', () => {
        req.pause();
        void petstore(req, res);
      });
    });
    const base = await listenForTest(server);
    const { request } = await import('node:http');
    const url = new URL(`${base}/v1/pets`);
    // Two writes, so the body arrives in two chunks.
    const status = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': '29' }, timeout: PATIENCE_MS }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject).on('timeout', () => reject(new Error('no answer')));
      req.write('{"name":"Tom",');
      setImmediate(() => req.end('"categoryId":1}'));
    });
    expect(status.status).toBe(500);
    expect(JSON.parse(status.text)).toMatchObject({ code: 'internal_error', message: expect.stringMatching(/`body`/) });
  });

  it('a GET behind a parser that read the (empty) stream is answered as usual', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = Fastify();
    app.all('/*', (request, reply) => petstore(request.raw, reply.hijack().raw));
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    const response = await call(`http://127.0.0.1:${port}/v1/pets`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });
});

describe('the store handed over in a shape of the framework’s own', () => {
  it('Express app.use("/api", petstore.fetch) behind express.json() serves the API under /api/v1', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = express();
    app.use(express.json());
    app.use('/api', petstore.fetch as unknown as express.RequestHandler);
    const base = await listenForTest(createServer(app));
    await expectServedUnderApi(base);
  });

  it('koa-mount given the store itself, behind @koa/bodyparser, serves the API under /api/v1', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = new Koa();
    app.use(bodyParser());
    app.use(mount('/api', petstore));
    const base = await listenForTest(createServer(app.callback()));
    await expectServedUnderApi(base);
  });

  it('koa-mount given petstore.fetch serves the API the same way', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = new Koa();
    app.use(mount('/api', petstore.fetch as unknown as Koa.Middleware));
    const base = await listenForTest(createServer(app.callback()));
    expect((await createCat(`${base}/api/v1/pets`)).status).toBe(201);
  });

  it('a Fastify route given the store itself serves the API, its body parsed by Fastify', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = Fastify();
    app.all('/*', petstore);
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    const created = await createCat(`http://127.0.0.1:${port}/v1/pets`);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'Tom' });
  });

  it('a Fastify plugin under a prefix given the store itself serves the API under that prefix, and its URLs carry it', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = Fastify();
    await app.register(async (api) => api.all('/*', petstore), { prefix: '/api' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    const created = await createCat(`http://127.0.0.1:${port}/api/v1/pets`);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(/^\/api\/v1\/pets\/\d+$/);
  });

  it('a Hono route given the store itself serves the API', async () => {
    const petstore = createPetStore({ apiKeys });
    const app = new Hono();
    app.all('/v1/*', petstore);
    const server = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    const base = await listenForTest(server);
    const created = await createCat(`${base}/v1/pets`);
    expect(created.status).toBe(201);
    expect((await call(`${base}/v1/pets`)).status).toBe(200);
  });

  it('called with something it cannot serve, on a node:http response, it answers a JSON 500 naming what to pass', async () => {
    const petstore = createPetStore({ apiKeys });
    const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
      void (petstore as unknown as (a: unknown, b: unknown) => Promise<void>)({ nothing: true }, res);
    });
    const response = await call(`${await listenForTest(server)}/v1/pets`);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('internal_error');
    expect(body.message).toMatch(/petstore\(req, res\)/);
  });
});
