/** What a `fetch(request, ...contexts)` caller tells the API: a PetStoreContext, Deno's handler info, Bun's server or @hono/node-server's bindings, read into one Host. */
import { NO_HOST, type Host, type PetStoreContext } from '../src/index.ts';

/** What the hosts we know put after the request, read structurally so no runtime's types are needed. */
interface HostObject extends PetStoreContext {
  /** @hono/node-server's `c.env`, which Hono's `app.mount` passes on. */
  readonly incoming?: { readonly socket?: { readonly remoteAddress?: string } };
  /** Deno.serve's handler info, when `Deno.serve(petstore)` calls the handler directly. */
  readonly remoteAddr?: { readonly hostname?: string };
  /** Bun's server, when `Bun.serve({ fetch: petstore.fetch })` calls the handler directly. */
  readonly requestIP?: (request: Request) => { readonly address?: string } | null;
}

/**
 * The {@link Host} of a request from what its caller passed after it. Several contexts are laid
 * over the first (`fetch(request, c.env, { mountPath })`, as Hono's mount passes them), which
 * stays the prototype, so a host object's getters and methods (Deno's info, Bun's server) still answer.
 */
export function hostOf(request: Request, contexts: readonly unknown[]): Host {
  const context = merged(contexts);
  if (context === undefined) return NO_HOST;
  const clientAddress =
    context.clientAddress ??
    askHost(context, (object) => (typeof object.requestIP === 'function' ? (object.requestIP(request)?.address ?? undefined) : undefined)) ??
    askHost(context, (object) => object.remoteAddr?.hostname) ??
    context.incoming?.socket?.remoteAddress;
  return { clientAddress, mountPath: context.mountPath, body: context.body, bodyError: context.bodyError };
}

/** The contexts as one object, or `undefined` for none. */
function merged(contexts: readonly unknown[]): HostObject | undefined {
  const objects = contexts.filter((context): context is object => typeof context === 'object' && context !== null);
  const [first, ...others] = objects;
  if (!first) return undefined;
  return others.length === 0 ? first : (Object.assign(Object.create(first) as object, ...others) as HostObject);
}

/**
 * The first answer `ask` gets from the context or an object up its prototype chain: what a host
 * put there only works on the real object (Deno's `remoteAddr` getter reads a private field, and
 * Bun's `requestIP` insists on its own server as `this`).
 */
function askHost<T>(context: HostObject, ask: (object: HostObject) => T | undefined): T | undefined {
  for (let object: object | null = context; object !== null && object !== Object.prototype; object = Object.getPrototypeOf(object)) {
    try {
      const answer = ask(object as HostObject);
      if (answer !== undefined) return answer;
    } catch {
      // A wrapper around the host's object: its prototype is the object itself.
    }
  }
  return undefined;
}
