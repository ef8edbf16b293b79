/** The request body as the journal keeps it: the bytes the API reads, seen as they pass, and never more than the body limit in all. */
import { joinedChunks, type RequestView } from '../../src/index.ts';

/** What a body source's reader gives: the API reads a body through `getReader()`, `read` and `cancel`. */
type BodyReader = ReturnType<NonNullable<RequestView['body']>['getReader']>;

/**
 * A request body as the journal keeps it: its first `limit` bytes as text, and whether the body
 * went on past them.
 *
 * @example
 * const kept: KeptBody = { text: '{"name":"Rex"', truncated: true };
 */
export interface KeptBody {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * A body for the API to read in the request's place, keeping what passes, and the journal's read
 * of it once the API has answered.
 *
 * @example
 * const tap = bodyTap(request.body, config.maxBodyBytes);
 */
export interface BodyTap {
  /** The request's body, read through: each chunk the API reads is kept, up to the limit. */
  readonly body: RequestView['body'];
  /**
   * After the answer: the first `limit` bytes. When the API read fewer (a 401 reads none), the rest
   * up to `limit + 1` is read now, never more; a body that ends early keeps what came.
   */
  kept(): Promise<KeptBody>;
}

const DECODER = new TextDecoder();

/**
 * `source` read through for the API, keeping its first `limit` bytes for the journal. One reader
 * of `source` serves both: the API's reads first, then the journal's, so no byte is read twice and
 * none is buffered beyond the limit. The rest of a longer body is left where it is, unread and not
 * cancelled: cancelling a node:http request's stream would close the socket before the answer goes
 * out, and the host drops the rest as it does when the API stops early.
 */
export function bodyTap(source: ReadableStream<Uint8Array> | null, limit: number): BodyTap {
  if (source === null) return { body: null, kept: async () => ({ text: '', truncated: false }) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let ended = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const readerOf = () => (reader ??= source.getReader());

  const keep = (chunk: Uint8Array) => {
    if (size + chunk.byteLength > limit) truncated = true;
    if (size >= limit) return;
    const part = chunk.byteLength <= limit - size ? chunk : chunk.subarray(0, limit - size);
    chunks.push(part);
    size += part.byteLength;
  };

  const read = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    const result = await readerOf().read();
    if (result.done) ended = true;
    else keep(result.value);
    return result;
  };

  const apiReader: BodyReader = {
    read,
    cancel: async () => {
      // The API stops reading a body past its limit: nothing more is read for the journal either.
      ended = true;
      await readerOf().cancel();
    },
  };

  return {
    body: { getReader: () => apiReader },
    async kept() {
      try {
        while (!ended && !truncated) await read();
      } catch {
        // A client gone mid-body: what came is what is kept.
      }
      return { text: DECODER.decode(joinedChunks(chunks, size)), truncated };
    },
  };
}

/**
 * What the journal keeps of a refused request's body (401, 413, 415, 429): nothing, never read, and
 * marked cut when there may have been one (a body not said to be empty by `Content-Length: 0`). A caller
 * without a key can send such requests as fast as it likes; reading their bodies for the journal
 * would hold its uploads, up to the body limit each.
 *
 * @example
 * unreadBody(new Request('http://x/v1/pets', { method: 'POST', body: '{}' })); // { text: '', truncated: true }
 */
export function unreadBody(request: Request): KeptBody {
  // No Content-Length need not mean no body: a Request made in process from a string has none.
  return { text: '', truncated: request.body !== null && request.headers.get('content-length') !== '0' };
}

/**
 * `request` as the API reads it, its body `body` (a {@link BodyTap}'s) instead of its own; user
 * code that asks for the Request (the `clientAddress` option) gets `request` itself.
 *
 * @example
 * const view = readingThrough(request, bodyTap(request.body, config.maxBodyBytes).body);
 */
export function readingThrough(request: Request, body: RequestView['body']): RequestView {
  return {
    method: request.method,
    // Read when the API asks: a URL made from a Host the edge refuses does not parse everywhere.
    get url() {
      return request.url;
    },
    headers: request.headers,
    body,
    toRequest: () => request,
  };
}
