/** The one seam between a runtime and the API: what the runtime knows about a request beyond the Request itself. */
import type { HostBody } from '../operations/types.ts';
import type { ApiError } from '../response/api-error.ts';
import type { PetStoreContext } from './context.ts';
import type { RequestNotes } from './telemetry.ts';

/** The request target and Host field exactly as they arrived, when the runtime keeps them (node:http does). */
export interface WireTarget {
  /** The request target as sent: origin-form (`/v1/pets?limit=5`), absolute-form, or `*`. */
  readonly target: string;
  readonly host: string | undefined;
  /** HTTP/1.1, where a missing Host is a 400 (RFC 9112 §3.2). */
  readonly http11: boolean;
}

/**
 * What a runtime adapter tells the request path about one request. The core reads nothing else of
 * a host: runtimes/ turns node:http's request, Deno's info, Bun's server or a user's
 * {@link PetStoreContext} into one of these, so no runtime's objects reach src/.
 */
export interface Host extends PetStoreContext {
  /** The peer that opened the connection, as the runtime reports it (before any trusted proxy). */
  readonly clientAddress?: string | undefined;
  /** True when the host already cut `mountPath` off the request's path (Express's `req.baseUrl`). */
  readonly mountStripped?: boolean;
  /** The raw target, so a URL the runtime pasted together from Host and path is not trusted. */
  readonly wire?: WireTarget;
  /** A refusal the runtime made before the API saw the request (a repeated singleton field, too many header lines). */
  readonly refusal?: ApiError;
  /** The Response class to answer with: the one the runtime writes fastest. Default: the global Response. */
  readonly ResponseClass?: typeof Response;
  /**
   * True when something in front of the API already read the request's stream (a body parser, a
   * logger) and passed no `body`: reading it again would wait forever, so a body is refused at once.
   */
  readonly bodyTaken?: boolean;
  /** A call from the same process (`petstore.fetch(url, init)`): no network caller, so no address is expected. */
  readonly inProcess?: boolean;
  /** Where the path notes what it decided (the route, the plan, the limits' ruling), when telemetry watches this request. */
  readonly notes?: RequestNotes;
}

/** A host that knows nothing beyond the Request: `petstore.fetch(request)` with no context. */
export const NO_HOST: Host = Object.freeze({});

/** A host for a request made in the same process from a URL and init: there is no peer to name. */
export const IN_PROCESS: Host = Object.freeze({ inProcess: true });

/**
 * The body the host already read, if it did: its `body`, or the error its parser failed with
 * (413 as too large; text it could not parse is checked like a body read here, so the answer is
 * the same 400; anything else is a 400 for invalid JSON), or word that a stream was read and its
 * body not passed on.
 */
export function bodyReadByHost(host: Host): HostBody | undefined {
  const { bodyError } = host;
  if (host.bodyTaken && host.body === undefined && bodyError === undefined) return { refused: 'taken' };
  if (bodyError !== undefined && bodyError !== null) {
    const failure = bodyError as { status?: unknown; statusCode?: unknown; body?: unknown };
    if (failure.status === 413 || failure.statusCode === 413) return { refused: 'too_large' };
    return typeof failure.body === 'string' ? { value: failure.body } : { refused: 'not_json' };
  }
  return host.body !== undefined ? { value: host.body } : undefined;
}
