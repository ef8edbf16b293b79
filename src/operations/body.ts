/** Reads a JSON request body: media type checked, bytes capped while streaming, keys screened. */
import { ApiError } from '../response/api-error.ts';
import type { ApiRequest, BodySource } from './request.ts';
import type { HostBody } from './types.ts';

/**
 * Deepest nesting of arrays and objects a body may have; a pet needs 1, and deeper input only costs stack.
 *
 * @example
 * '[[1]]'; // depth 2, well within MAX_JSON_DEPTH
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Keys a body may not use at any depth: they could reach a prototype when the body is later spread
 * or merged by someone's code. The OpenAPI document declares the same list.
 *
 * @example
 * RESERVED_BODY_KEYS.includes('__proto__'); // true
 */
export const RESERVED_BODY_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
const FORBIDDEN_KEYS = new Set<string>(RESERVED_BODY_KEYS);
/** Text without these cannot hold a forbidden key: a key with an escape in it needs a backslash. */
const MAY_NAME_FORBIDDEN_KEY = /__proto__|constructor|prototype|\\/;
/** One decoder for every body: `decode` without `stream` starts afresh each call. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body of `request` as a JSON object, or an {@link ApiError}: 415 for a media type other
 * than JSON, 413 past `maxBytes` (refused on `Content-Length` before reading, otherwise cut
 * off mid-stream), 400 for bytes that are not UTF-8 JSON, a non-object, or a forbidden key.
 * A body the host already read (`hostBody`) goes through the same checks: its text or bytes as
 * they are, a value its JSON parser made as that value's JSON.
 */
export async function readJsonObject(request: ApiRequest, maxBytes: number, hostBody?: HostBody): Promise<Record<string, unknown>> {
  const value = await readJson(request, maxBytes, hostBody);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidBody('The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** The body of `request` as any JSON value (an array, say), with every check of {@link readJsonObject} but the object one. */
export async function readJson(request: ApiRequest, maxBytes: number, hostBody?: HostBody): Promise<unknown> {
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError({ status: 415, code: 'unsupported_media_type', message: 'The request body must be JSON: send Content-Type: application/json.' });
  }
  const declared = declaredLength(request);
  if (declared !== undefined && declared > maxBytes) throw tooLarge(maxBytes);
  if (hostBody?.refused !== undefined) throw refusal(hostBody.refused, maxBytes);
  const bytes = hostBody ? hostBytes(hostBody.value, maxBytes) : await readBytes(request, maxBytes);
  // HTTP framing delivers every byte Content-Length promises or fails: fewer means something read some first.
  if (!hostBody && declared !== undefined && bytes.byteLength < declared) {
    throw bodyTaken(
      `The request body ended after ${bytes.byteLength} of the ${declared} bytes its Content-Length promised: something in front of the Pet Store read part of it.`,
    );
  }
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw invalidBody('The request body is empty; send a JSON object.');
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw invalidBody(`The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  // A reviver call per value made JSON.parse several times slower (BENCHMARKS.md, the POST row): only a
  // text that could spell a forbidden key (literally, or with an escape) is parsed with one.
  if (!MAY_NAME_FORBIDDEN_KEY.test(text)) return parse(text);
  const forbidden: string[] = [];
  const value = parse(text, function screen(key, item: unknown) {
    if (FORBIDDEN_KEYS.has(key)) forbidden.push(key);
    return item;
  });
  if (forbidden.length > 0) {
    throw invalidBody(`The request body uses a reserved key: ${forbidden[0]}.`, forbidden[0]);
  }
  return value;
}

/**
 * The length `Content-Length` promises, or `undefined` where it promises none: digits only (RFC
 * 9110 §8.6), so `1e9` or `-1`, which no HTTP parser lets through, are no promise in process either.
 */
function declaredLength(request: ApiRequest): number | undefined {
  const declared = request.headers.get('content-length');
  return declared !== null && /^[0-9]+$/.test(declared) ? Number(declared) : undefined;
}

/** JSON.parse, a syntax error being the client's 400. */
function parse(text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown): unknown {
  try {
    return JSON.parse(text, reviver);
  } catch {
    throw notJson();
  }
}

/** The deepest nesting of `[` and `{` outside strings: one linear pass, before JSON.parse recurses into it. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** `application/json` or any `+json` type, in UTF-8 (the only charset JSON allows, RFC 8259). */
function isJsonMediaType(header: string | null): boolean {
  if (header === null) return false;
  // What nearly every client sends, known without splitting (BENCHMARKS.md, the POST row).
  if (header === 'application/json') return true;
  const [essence = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  if (!/^application\/([a-z0-9.-]+\+)?json$/.test(essence)) return false;
  return parameters.every((p) => !p.startsWith('charset=') || /^charset="?utf-8"?$/.test(p));
}

/** The bytes of a body a host read, raw as given or the JSON of what its parser made, held to the same limit. */
function hostBytes(value: unknown, maxBytes: number): Uint8Array {
  const bytes =
    value instanceof Uint8Array
      ? value
      : value instanceof ArrayBuffer
        ? new Uint8Array(value)
        : new TextEncoder().encode(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

async function readBytes(request: ApiRequest, maxBytes: number): Promise<Uint8Array> {
  const body: BodySource | null = request.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      throw invalidBody('The request body ended before it was complete.');
    }
    const { done, value } = read;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Stop reading: the rest of an oversized body is never buffered.
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return joinedChunks(chunks, size);
}

/**
 * `chunks` as one array of bytes, `size` their bytes in all. Most bodies arrive in one chunk: it
 * is the body then, no copy made.
 *
 * @example
 * joinedChunks([new Uint8Array([1, 2]), new Uint8Array([3])], 3); // Uint8Array [1, 2, 3]
 */
export function joinedChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalidBody('The request body is not valid UTF-8.');
  }
}

function tooLarge(maxBytes: number): ApiError {
  // Closing lets the server drop the unread rest of the body instead of reading it.
  const message = `The request body is larger than ${maxBytes} bytes.`;
  return new ApiError({ status: 413, code: 'payload_too_large', message, headers: { Connection: 'close' } });
}

const notJson = (): ApiError => invalidBody('The request body is not valid JSON.');

/** The answer to a body the host's parser refused, or to a stream something read without passing the body on. */
function refusal(refused: 'too_large' | 'not_json' | 'taken', maxBytes: number): ApiError {
  if (refused === 'taken') return bodyTaken('The request body was already read by something in front of the Pet Store (a body parser?).');
  return refused === 'too_large' ? tooLarge(maxBytes) : notJson();
}

/**
 * A 500: the host's mistake, not the client's. Something in front of the API read the request's
 * stream; the API cannot read it again, only be handed what was read.
 */
function bodyTaken(what: string): ApiError {
  const message = `${what} Pass what it read as the \`body\` option, e.g. petstore(req, res, { body: req.body }).`;
  return new ApiError({ status: 500, code: 'internal_error', message });
}

function invalidBody(message: string, field = 'body'): ApiError {
  return new ApiError({ status: 400, code: 'invalid_request', message, details: [{ field, message }] });
}
