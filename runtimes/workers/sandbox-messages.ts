/** What the Workers fake backend's Worker tells its PetStoreFake objects about sandboxes: requests of its own, which no client's request can pass for. */
import type { SandboxKeys } from '../../controls/index.ts';

/**
 * The header that marks a message, holding the admin token. The Worker removes it from every
 * request it forwards, so only the Worker itself can send one; the token is checked besides,
 * for a script whose own code calls the namespace.
 */
export const INTERNAL_HEADER = 'PetStore-Internal';

/**
 * A message: to a sandbox's object, `open` (its keys, its selector, and the pets it starts with)
 * and `wipe` (it was deleted); to the main object, `touch` (the sandbox was used: is it still open,
 * and, with `key`, is that one of its keys?) and `find` (which open sandbox has this selector? it
 * was used). An object answers a message with the sandbox's id, or 404 when it has no such sandbox.
 *
 * @example
 * const opening: SandboxMessage = { op: 'open', id, keys, selector, seed: [{ name: 'Rex', categoryId: 1 }] };
 */
export type SandboxMessage =
  | { readonly op: 'open'; readonly id: string; readonly keys: SandboxKeys; readonly selector: string; readonly seed?: unknown }
  | { readonly op: 'wipe'; readonly id: string }
  | { readonly op: 'touch'; readonly id: string; readonly key?: string }
  | { readonly op: 'find'; readonly selector: string };

/**
 * `message` as the request that carries it to an object.
 *
 * @example
 * await stub.fetch(messageRequest({ op: 'wipe', id }, env.PETSTORE_ADMIN_TOKEN));
 */
export function messageRequest(message: SandboxMessage, token: string): Request {
  return new Request(`https://petstore-fake.internal/${message.op}`, {
    method: 'POST',
    headers: { [INTERNAL_HEADER]: token, 'content-type': 'application/json' },
    body: JSON.stringify(message),
  });
}

/**
 * The message `request` carries, or `undefined` when it carries none (a client's request); a
 * request marked with the wrong token is a TypeError.
 *
 * @example
 * const message = await readMessage(request, env.PETSTORE_ADMIN_TOKEN);
 */
export async function readMessage(request: Request, token: string): Promise<SandboxMessage | undefined> {
  const mark = request.headers.get(INTERNAL_HEADER);
  if (mark === null) return undefined;
  // Plain comparison: no client's request arrives with this header, so there is no caller to time it.
  if (mark !== token) throw new TypeError(`${INTERNAL_HEADER}: not this fake backend's token`);
  return (await request.json()) as SandboxMessage;
}

/**
 * `request` as the Worker forwards it: without the message header a client may have sent.
 *
 * @example
 * return stub.fetch(unmarked(request));
 */
export function unmarked(request: Request): Request {
  if (!request.headers.has(INTERNAL_HEADER)) return request;
  const copy = new Request(request);
  copy.headers.delete(INTERNAL_HEADER);
  return copy;
}
