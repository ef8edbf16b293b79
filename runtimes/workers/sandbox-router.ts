/** The fake backend's Worker: each request to the PetStoreFake object of its world (the main one, or its sandbox's own), and the messages that keep them agreeing. */
import { sandboxIdOf, selectorOf, type SandboxKeys } from '../../controls/index.ts';
import { bearerToken } from '../../src/index.ts';
import type { DurableObjectNamespaceLike } from '../../stores/durable-objects/limit-store.ts';
import { messageRequest, unmarked, type SandboxMessage } from './sandbox-messages.ts';

/** The main object's name: the main world, the admin API, and the registry of sandboxes (their cap, list and idle times). */
const MAIN = 'fake-backend';

/**
 * How often a sandbox's use is told to the main object, at most: its idle time is counted there,
 * so a sandbox in use is never deleted as idle. The main object holds the registry: a key, id or
 * selector it does not have (made up, deleted, idle too long, or forgotten when Cloudflare evicted
 * the main object) never reaches a sandbox's object, which would be made for it.
 */
const TOUCH_EVERY_MS = 10_000;
/** The keys, ids and selectors a Worker instance remembers the main object confirming: beyond this, the least recent is forgotten (and asked about again). */
const REMEMBERED = 10_000;

/**
 * Where a request goes: a sandbox's object (named by the request's selector, its sandbox key, or
 * its admin path), or the main one (with what it opens or deletes, which the sandbox's object must hear of).
 */
interface Target {
  readonly sandbox?: string;
  /** The sandbox key the request carries, for the main object to check before the request goes on. */
  readonly key?: string;
  /**
   * The selector the request carries (`Petstore-Sandbox`, else `petstore.sandbox` in `baggage`),
   * for the main object to find the sandbox of: a selector is no object's name, since the
   * sandbox's object answers to its id and its selector is a secret.
   */
  readonly selector?: string;
  readonly opens?: boolean;
  readonly deletes?: string;
}

const ADMIN_SANDBOXES = /^\/__admin\/sandboxes(?:\/([0-9a-z]{12})(\/.+)?)?$/;

/** The request's target, by its path below `mountPath` under `/__admin`, else by its selector (the sandbox's object answers the 409 of another sandbox's key), else by its Bearer key. */
function targetOf(request: Request, mountPath = ''): Target {
  const { pathname } = new URL(request.url);
  const path = pathname.startsWith(`${mountPath}/`) ? pathname.slice(mountPath.length) : pathname;
  if (path === '/__admin' || path.startsWith('/__admin/')) {
    const [, id, below] = ADMIN_SANDBOXES.exec(path) ?? [];
    if (id !== undefined && below !== undefined) return { sandbox: id };
    if (id !== undefined) return { deletes: request.method === 'DELETE' ? id : undefined };
    return { opens: request.method === 'POST' && path === '/__admin/sandboxes' };
  }
  const selector = selectorOf(request.headers);
  if (selector !== undefined) return { selector };
  const key = bearerToken(request.headers.get('authorization'));
  const id = sandboxIdOf(key);
  return id === undefined ? {} : { sandbox: id, key: key! };
}

/**
 * Whether `request` is a `POST /__admin/sandboxes`, which opens a sandbox.
 *
 * @example
 * if (opensSandbox(request, '/api') && response.status === 201) forgetPetsOf((await response.clone().json()).id);
 */
export const opensSandbox = (request: Request, mountPath?: string): boolean => targetOf(request, mountPath).opens === true;

/**
 * What serves the fake backend's requests: the main world's and the admin API's in the main
 * object, each sandbox's (its selector, its keys, and `/__admin/sandboxes/{id}/…`) in an object of
 * its own, named `sandbox:<id>`. The main object opens sandboxes (their ids, keys and selectors),
 * and this Worker then tells the sandbox's object its keys, selector and pets; a DELETE it tells to wipe itself.
 *
 * @example
 * const serve = sandboxRouter(env.PETSTORE_FAKE, env.PETSTORE_ADMIN_TOKEN);
 * return serve(request, '/api');
 */
export function sandboxRouter<Id>(fake: DurableObjectNamespaceLike<Id>, token: string): (request: Request, mountPath?: string) => Promise<Response> {
  const main = fake.idFromName(MAIN);
  // A stub per request: workerd refuses I/O through one a previous request made.
  const sandbox = (id: string) => fake.get(fake.idFromName(`sandbox:${id}`));
  /** The id of the sandbox the object that got `message` has, `undefined` when it has none. */
  const tell = async (to: ReturnType<typeof fake.get>, message: SandboxMessage) => {
    const answer = await to.fetch(messageRequest(message, token));
    // Never the selector in an error: it is a secret, and errors reach logs.
    if (!answer.ok && answer.status !== 404) throw new Error(`the fake backend's ${message.op} message was answered ${answer.status}`);
    return answer.ok ? answer.text() : undefined;
  };
  // By a sandbox key or a selector (an API request) or an id (an admin path, whose token the
  // sandbox's object checks): the sandbox the main object confirmed it names, and when.
  const confirmedAt = new Map<string, { readonly id: string; readonly at: number }>();
  const confirmed = (credential: string, id: string) => {
    confirmedAt.delete(credential);
    confirmedAt.set(credential, { id, at: Date.now() });
    if (confirmedAt.size > REMEMBERED) confirmedAt.delete(confirmedAt.keys().next().value!);
  };
  /**
   * The id of the open sandbox `target` names, as the main object has it (and its key one of its
   * keys), told it is in use once in TOUCH_EVERY_MS. Nothing is remembered of a no, so each made-up
   * key or selector asks again.
   */
  async function openSandbox({ sandbox: id, key, selector }: Target): Promise<string | undefined> {
    const credential = selector ?? key ?? id;
    if (credential === undefined) return undefined;
    const known = confirmedAt.get(credential);
    if (known && Date.now() - known.at < TOUCH_EVERY_MS) return known.id;
    const message: SandboxMessage = selector !== undefined ? { op: 'find', selector } : { op: 'touch', id: id!, ...(key !== undefined && { key }) };
    const found = await tell(fake.get(main), message);
    if (found !== undefined) confirmed(credential, found);
    return found;
  }

  return async (incoming, mountPath) => {
    const request = unmarked(incoming);
    const target = targetOf(request, mountPath);
    // A key, id or selector the registry does not have goes to the main object: a key as any wrong
    // key does (its 401, counted against the caller's address, then its 429), an id to the admin
    // API's 404, a selector to the API's 404 naming no open sandbox; no object is made for it.
    const id = await openSandbox(target);
    if (id !== undefined) return sandbox(id).fetch(request);
    const body = target.opens ? request.clone() : undefined;
    const response = await fake.get(main).fetch(request);
    if (body && response.status === 201) {
      const { id, keys, selector } = (await response.clone().json()) as { id: string; keys: SandboxKeys; selector: string };
      const text = await body.text();
      // The main object has checked the body: `{}`, `{"seed": …}`, or none at all.
      const { seed } = (text === '' ? {} : JSON.parse(text)) as { seed?: unknown };
      await tell(sandbox(id), { op: 'open', id, keys, selector, seed });
      for (const credential of [id, selector, keys.free, keys.pro, keys.business]) confirmed(credential, id);
    }
    if (target.deletes !== undefined && response.status === 204) {
      const id = target.deletes;
      // Forgotten here at once; another Worker instance may send a deleted sandbox's key or selector
      // to its wiped object, which answers 401 or 404, for TOUCH_EVERY_MS.
      for (const [credential, known] of confirmedAt) if (known.id === id) confirmedAt.delete(credential);
      await tell(sandbox(id), { op: 'wipe', id });
    }
    return response;
  };
}
