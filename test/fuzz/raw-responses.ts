/** A small HTTP/1.x response reader for the raw fuzz suite: splits whatever a socket received into responses. */

/** One response as it came off the wire. */
export interface RawResponse {
  readonly status: number;
  /** Status line and header lines, without the blank line. */
  readonly head: string;
  /** Header fields in order, names lower-cased. */
  readonly headers: readonly (readonly [string, string])[];
  /** The body after de-chunking; empty for HEAD, 1xx, 204 and 304. */
  readonly body: Buffer;
}

/** What could be read so far: complete responses, and either the unread tail or why it cannot be read. */
export interface ReadResult {
  readonly responses: RawResponse[];
  /** Final (non-1xx) responses among `responses`. */
  readonly finals: number;
  /** Bytes after the last complete response. */
  readonly rest: Buffer;
  /** Set when the bytes are not HTTP/1.x responses at all. */
  readonly error?: string;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** First value of a header, or undefined. */
export function header(response: RawResponse, name: string): string | undefined {
  return response.headers.find(([n]) => n === name)?.[1];
}

/** Whether the server said it stops reading after this response (RFC 9112 §9.6). */
export function closesConnection(response: RawResponse): boolean {
  return response.headers.some(([n, v]) => n === 'connection' && /(^|,)\s*close\s*(,|$)/i.test(v));
}

/**
 * Reads responses from `data`. `methods[i]` is the method of the i-th request, so that the
 * answer to a HEAD is read without a body. `ended` says the server closed: only then does a
 * response without Content-Length or chunking end (at the close).
 */
export function readResponses(data: Buffer, methods: readonly string[], ended: boolean): ReadResult {
  const responses: RawResponse[] = [];
  let finals = 0;
  let at = 0;
  const result = (error?: string): ReadResult => ({ responses, finals, rest: data.subarray(at), ...(error ? { error } : {}) });
  let afterHead = false;
  while (at < data.length) {
    const headEnd = data.indexOf(CRLF2, at);
    const head = data.subarray(at, headEnd < 0 ? data.length : headEnd).toString('latin1');
    const [statusLine = '', ...lines] = head.split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/.exec(statusLine);
    // What follows the answer to a HEAD must be the next response, never a body.
    if (afterHead && !'HTTP/1.'.startsWith(statusLine.slice(0, 7))) return result('a body after a HEAD response');
    if (headEnd < 0) return result(ended ? 'the server closed mid-head' : undefined);
    if (!match) return result(`not a status line: ${JSON.stringify(statusLine.slice(0, 60))}`);
    const status = Number(match[1]);
    const headers: [string, string][] = [];
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) return result(`not a header line: ${JSON.stringify(line.slice(0, 60))}`);
      headers.push([line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]);
    }
    const interim = status < 200;
    const base = { status, head, headers };
    let next = headEnd + 4;
    let body: Buffer = Buffer.alloc(0);
    const transferEncoding = headers.find(([n]) => n === 'transfer-encoding')?.[1];
    const contentLength = headers.find(([n]) => n === 'content-length')?.[1];
    // A request the server could not parse is not a HEAD to it, even if it began with "HEAD": when
    // a closing error is followed by exactly Content-Length bytes instead of a next response, read them.
    const unparsedHead =
      methods[finals] === 'HEAD' &&
      status >= 400 &&
      headers.some(([n, v]) => n === 'connection' && /close/i.test(v)) &&
      contentLength !== undefined &&
      data.length === next + Number(contentLength) &&
      !data.toString('latin1', next, next + 5).startsWith('HTTP/');
    const bodiless = interim || status === 204 || status === 304 || (methods[finals] === 'HEAD' && !unparsedHead);
    if (bodiless) {
      // nothing follows the head
    } else if (transferEncoding !== undefined) {
      if (!/^chunked$/i.test(transferEncoding)) return result(`response Transfer-Encoding ${transferEncoding}`);
      const chunked = readChunked(data, next);
      if (chunked === 'incomplete') return result(ended ? 'the server closed mid-body' : undefined);
      if (typeof chunked === 'string') return result(chunked);
      [body, next] = chunked;
    } else if (contentLength !== undefined) {
      if (!/^\d+$/.test(contentLength)) return result(`response Content-Length ${contentLength}`);
      const end = next + Number(contentLength);
      if (end > data.length) return result(ended ? 'the server closed mid-body' : undefined);
      body = data.subarray(next, end);
      next = end;
    } else {
      // Delimited by the close (RFC 9112 §6.3): complete only once the server has closed.
      if (!ended) return result();
      body = data.subarray(next);
      next = data.length;
    }
    afterHead = bodiless && !interim && methods[finals] === 'HEAD';
    responses.push({ ...base, body });
    if (!interim) finals++;
    at = next;
  }
  return result();
}

/** De-chunks a body starting at `from`: [body, offset after it], 'incomplete', or what is wrong. */
function readChunked(data: Buffer, from: number): [Buffer, number] | 'incomplete' | string {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return 'incomplete';
    const sizeText = data.subarray(at, lineEnd).toString('latin1').split(';')[0]!.trim();
    if (!/^[0-9a-f]+$/i.test(sizeText)) return `bad chunk size ${JSON.stringify(sizeText)}`;
    const size = parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (size === 0) {
      // Trailer fields, then the blank line.
      const end = data.indexOf('\r\n', at) === at ? at : data.indexOf(CRLF2, at);
      if (end < 0) return 'incomplete';
      return [Buffer.concat(parts), end === at ? at + 2 : end + 4];
    }
    if (at + size + 2 > data.length) return 'incomplete';
    parts.push(data.subarray(at, at + size));
    if (data.toString('latin1', at + size, at + size + 2) !== '\r\n') return 'chunk not followed by CRLF';
    at += size + 2;
  }
}
