/**
 * An app without OpenTelemetry passes its caller's sandbox selector on with one line: a real Express
 * app that calls the Pet Store from its server with one main-world key, forwarding the incoming
 * `baggage` header as docs/testing.md's "Server-rendered apps" shows. Each caller's baggage picks
 * its sandbox, for what the app lists and what it creates; without the line, every caller gets the
 * main world.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { adminServer, json } from '../helpers/admin-server.ts';
import { KEY } from '../helpers/server.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * The shop: `GET /` lists the API's pets' names, `POST /pets` creates one, both with its own key.
 * With `forward`, each call to the API carries the caller's baggage, the one line the docs add.
 */
async function shop(api: string, forward: boolean): Promise<string> {
  const app = express();
  app.use(express.json());
  const headersFor = (req: express.Request): Record<string, string> => {
    const baggage = req.get('baggage');
    return { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...(forward && baggage && { baggage }) };
  };
  app.get('/', async (req, res) => {
    const answer = await fetch(`${api}/pets`, { headers: headersFor(req) });
    res.status(answer.status).json(((await answer.json()) as { name: string }[]).map((pet) => pet.name));
  });
  app.post('/pets', async (req, res) => {
    const answer = await fetch(`${api}/pets`, { method: 'POST', headers: headersFor(req), body: JSON.stringify(req.body) });
    res.status(answer.status).json(await answer.json());
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A Pet Store with the admin API on, two sandboxes seeded apart, and the shop in front of it. */
async function twoSandboxesBehind(forward: boolean) {
  const petstore = await adminServer();
  const open = async (name: string) =>
    (await (await petstore.admin('/sandboxes', json({ seed: [{ name, categoryId: 1 }] }))).json()) as { id: string; selector: string };
  const rex = await open('Rex');
  const tom = await open('Tom');
  return { petstore, rex, tom, url: await shop(petstore.url, forward) };
}

/** What the shop lists for a caller sending `headers`. */
const listed = async (url: string, headers: Record<string, string> = {}) => (await (await fetch(url, { headers })).json()) as string[];

describe('an app that forwards its caller’s baggage to the Pet Store in one line', () => {
  it('lists each caller’s own sandbox, with other baggage members beside the selector, and the main world to a caller with none', async () => {
    const { rex, tom, url } = await twoSandboxesBehind(true);
    expect(await listed(url, { baggage: `petstore.sandbox=${rex.selector}` })).toEqual(['Rex']);
    expect(await listed(url, { baggage: `userId=7, petstore.sandbox=${tom.selector};ttl=1, region=eu` })).toEqual(['Tom']);
    expect(await listed(url)).toEqual([]);
  });

  it('creates in the caller’s sandbox: the pet and the request are there, the main world has neither', async () => {
    const { petstore, rex, url } = await twoSandboxesBehind(true);
    const created = await fetch(`${url}/pets`, {
      method: 'POST',
      headers: { baggage: `petstore.sandbox=${rex.selector}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Felix', categoryId: 2 }),
    });
    expect([created.status, await created.json()]).toEqual([201, { id: 2, name: 'Felix', categoryId: 2 }]);
    expect(await (await petstore.admin(`/sandboxes/${rex.id}/pets`)).json()).toEqual([
      { id: 1, name: 'Rex', categoryId: 1 },
      { id: 2, name: 'Felix', categoryId: 2 },
    ]);
    const journal = (await (await petstore.admin(`/sandboxes/${rex.id}/requests`)).json()) as { method: string; path: string; status: number }[];
    expect(journal.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(['POST /v1/pets 201']);
    expect(await (await petstore.admin('/pets')).json()).toEqual([]);
    expect(await (await petstore.admin('/requests')).json()).toEqual([]);
  });

  it('without the line, answers every caller from the main world, whatever its baggage', async () => {
    const { rex, tom, url } = await twoSandboxesBehind(false);
    expect(await listed(url, { baggage: `petstore.sandbox=${rex.selector}` })).toEqual([]);
    expect(await listed(url, { baggage: `petstore.sandbox=${tom.selector}` })).toEqual([]);
  });
});
