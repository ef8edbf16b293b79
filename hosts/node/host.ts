/** What node:http (and Express, Koa, Fastify on top of it) tells the API about a request: the raw target, the header lines, the peer, a body a parser read. */
import { ApiError, badRequest, type Host, type PetStoreContext } from '../../src/index.ts';

/** The part of a node:http IncomingMessage the host reads. Node's own type, and every framework's that extends it, fits. */
export interface NodeRequestFields {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  /** Express: the prefix the request was mounted under, already removed from `url`. */
  readonly baseUrl?: string;
  /** Express (and any connect-style parser): the body it parsed, once the stream is read. */
  readonly body?: unknown;
  readonly readableEnded?: boolean;
  readonly httpVersion?: string;
  readonly rawHeaders?: readonly string[];
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly socket?: { readonly remoteAddress?: string | undefined; readonly server?: { readonly maxHeadersCount?: number | null } } | null;
}

/** Fields that must appear at most once (RFC 9110 §5.3): a second line could smuggle another value past us. */
const SINGLETON_FIELDS: Readonly<Record<string, string>> = { host: 'Host', authorization: 'Authorization', 'content-type': 'Content-Type' };
/** The lengths of those names: a raw name of any other length is none of them, and is not lower-cased. */
const SINGLETON_LENGTHS = new Set(Object.keys(SINGLETON_FIELDS).map((field) => field.length));
/** Node keeps this many raw header entries (name and value each count) unless the server says otherwise. */
const NODE_DEFAULT_HEADER_ENTRIES = 2000;

/**
 * The {@link Host} of a node:http request, with what the caller added (`context`: a body its parser
 * read, the prefix it mounted the store under, an address it knows better).
 */
export function nodeHost(req: NodeRequestFields, context: PetStoreContext | undefined, ResponseClass?: typeof Response): Host {
  const rawHeaders = req.rawHeaders ?? [];
  const refusal = headersDropped(req, rawHeaders) ?? repeatedSingleton(rawHeaders);
  const host = req.headers.host;
  // Express cut its mount prefix off `url` and says which in baseUrl; another host names it in the context.
  const mountPath = req.baseUrl || context?.mountPath;
  // A connect-style parser that consumed the stream left the body on the request.
  const body = context?.body ?? (req.readableEnded ? req.body : undefined);
  // Read by something that kept the body to itself (Fastify's parser, Koa's): the stream will never give it again.
  const bodyTaken = body === undefined && req.readableEnded === true && hasBody(req);
  // One literal with every field, absent ones undefined: one hidden class for every request (BENCHMARKS.md, HTTP: every row).
  return {
    clientAddress: context?.clientAddress ?? req.socket?.remoteAddress,
    mountPath,
    mountStripped: Boolean(req.baseUrl),
    body,
    bodyTaken,
    bodyError: context?.bodyError,
    wire: { target: req.url ?? '/', host: typeof host === 'string' ? host : undefined, http11: req.httpVersion === '1.1' },
    refusal,
    ResponseClass,
  };
}

/** Whether a request carries a body: node:http gives it one unless the method or the framing says none. */
export function hasBody(req: Pick<NodeRequestFields, 'method' | 'headers'>): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** One pass over the raw lines: the second line of any singleton field is a 400. */
function repeatedSingleton(rawHeaders: readonly string[]): ApiError | undefined {
  // No Set, and only names of a singleton's length lower-cased: this runs on every request (BENCHMARKS.md, HTTP: every row).
  let seen: string[] | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (!SINGLETON_LENGTHS.has(name.length)) continue;
    const field = name.toLowerCase();
    if (!Object.hasOwn(SINGLETON_FIELDS, field)) continue;
    if (seen?.includes(field)) return badRequest(`Send the ${SINGLETON_FIELDS[field]} header once.`);
    (seen ??= []).push(field);
  }
  return undefined;
}

/**
 * Node drops header lines past its cap without a word, and the dropped one might be
 * `Authorization`: a request at the cap is refused rather than judged on what is left.
 */
function headersDropped(req: NodeRequestFields, rawHeaders: readonly string[]): ApiError | undefined {
  const count = req.socket?.server?.maxHeadersCount;
  const cap = typeof count === 'number' ? count * 2 : NODE_DEFAULT_HEADER_ENTRIES;
  if (cap === 0 || rawHeaders.length < cap) return undefined;
  const message = `The request has too many header lines; send fewer than ${cap / 2}.`;
  return new ApiError({ status: 431, code: 'headers_too_large', message, headers: { Connection: 'close' } });
}
