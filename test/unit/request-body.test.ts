/** What a client sending a create body reads back, in process: each media type, size, encoding, shape and key the body check judges. */
import { describe, expect, it } from 'vitest';
import { createPetStore, type PetStoreOptions } from '../../compose/index.ts';
import { createHandle, resolveOptions } from '../../src/index.ts';

const KEY = 'body-key-0123456789';
const petstore = (options: PetStoreOptions = {}) => createPetStore({ apiKeys: { [KEY]: 'pro' }, onError: () => {}, ...options });

/** A create with `body` as sent and `headers` besides the key. */
function create(body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }, options: PetStoreOptions = {}) {
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { authorization: `Bearer ${KEY}`, ...headers }, body };
  if (body instanceof ReadableStream) init.duplex = 'half';
  return petstore(options).fetch(new Request('http://localhost/v1/pets', init));
}

/** The Error body of an answer, checked to carry the answer's status. */
async function answer(response: Response) {
  const json = await response.json();
  expect(json.status).toBe(response.status);
  return json;
}

const REX = '{"name":"Rex","categoryId":1}';
const UNSUPPORTED = { status: 415, code: 'unsupported_media_type', message: 'The request body must be JSON: send Content-Type: application/json.' };

describe('the media type of a create', () => {
  it.each([
    'application/json',
    'Application/JSON; charset=UTF-8',
    'application/json;charset="utf-8"',
    'application/vnd.pet+json',
    'application/json; version=2',
  ])('takes %s', async (type) => {
    expect((await create(REX, { 'content-type': type })).status).toBe(201);
  });

  it.each([
    'text/plain',
    'application/json; charset=latin1',
    'application/jsonx',
    'xapplication/json',
    'application/+json',
    'application/x+json+xml',
    'application/json; charset=utf-88',
  ])('answers %s with 415', async (type) => {
    expect(await answer(await create(REX, { 'content-type': type }))).toEqual(UNSUPPORTED);
  });

  it('answers a body sent with an empty Content-Type with 415', async () => {
    expect(await answer(await create(REX, { 'content-type': '' }))).toEqual(UNSUPPORTED);
  });

  it('answers a body sent without a Content-Type with 415', async () => {
    const request = new Request('http://localhost/v1/pets', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: new Uint8Array([123, 125]) });
    expect(await answer(await petstore().fetch(request))).toEqual(UNSUPPORTED);
  });
});

describe('the size of a create', () => {
  const limit = { maxBodyBytes: REX.length };
  const TOO_LARGE = { status: 413, code: 'payload_too_large', message: `The request body is larger than ${REX.length} bytes.` };

  it('takes a body of exactly maxBodyBytes', async () => {
    expect((await create(REX, undefined, limit)).status).toBe(201);
  });

  it('takes a body a host read of exactly maxBodyBytes, and answers one byte more with 413', async () => {
    const request = () =>
      new Request('http://localhost/v1/pets', { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });
    expect((await petstore(limit).fetch(request(), { body: REX })).status).toBe(201);
    expect(await answer(await petstore(limit).fetch(request(), { body: `${REX} ` }))).toEqual(TOO_LARGE);
  });

  it('answers a body one byte over maxBodyBytes with 413, closing the connection', async () => {
    const response = await create(`${REX} `, undefined, limit);
    expect(response.headers.get('connection')).toBe('close');
    expect(await answer(response)).toEqual(TOO_LARGE);
  });

  it('answers a body streamed in chunks past maxBodyBytes with 413, and takes one streamed in chunks within it', async () => {
    const stream = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of [text.slice(0, 10), text.slice(10)]) controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      });
    expect(await answer(await create(stream(`${REX}  `), undefined, limit))).toEqual(TOO_LARGE);
    const created = await create(stream(REX), undefined, limit);
    expect([created.status, (await created.json()).name]).toEqual([201, 'Rex']);
  });

  it('answers a Content-Length over maxBodyBytes with 413 before reading, and takes one that is not a number as no promise', async () => {
    expect(await answer(await create(REX, { 'content-type': 'application/json', 'content-length': String(REX.length + 1) }, limit))).toEqual(TOO_LARGE);
    expect((await create(REX, { 'content-type': 'application/json', 'content-length': String(REX.length) }, limit)).status).toBe(201);
    expect((await create(REX, { 'content-type': 'application/json', 'content-length': '1e1' }, limit)).status).toBe(201);
    // Read as a number, 1e9 would promise more bytes than the body has: it promises none.
    expect((await create(REX, { 'content-type': 'application/json', 'content-length': '1e9' })).status).toBe(201);
  });

  it('answers a body shorter than its Content-Length with a 500 that tells the host something read part of it', async () => {
    const response = await create(REX, { 'content-type': 'application/json', 'content-length': String(REX.length + 10) });
    expect(await answer(response)).toEqual({
      status: 500,
      code: 'internal_error',
      message:
        `The request body ended after ${REX.length} of the ${REX.length + 10} bytes its Content-Length promised: something in front of the Pet Store read part of it. ` +
        'Pass what it read as the `body` option, e.g. petstore(req, res, { body: req.body }).',
    });
  });

  it('takes a body a host parsed, whatever the Content-Length of the text it parsed, a number or not', async () => {
    const parsed = (length: string) =>
      new Request('http://localhost/v1/pets', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': length },
      });
    expect((await petstore().fetch(parsed('100'), { body: { name: 'Rex', categoryId: 1 } })).status).toBe(201);
    expect((await petstore(limit).fetch(parsed('1e9'), { body: { name: 'Rex', categoryId: 1 } })).status).toBe(201);
  });

  it('answers a body the host read without passing it on with a 500 that says to pass it', async () => {
    const handle = createHandle(resolveOptions({ apiKeys: { [KEY]: 'pro' }, onError: () => {} }));
    const request = new Request('http://localhost/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    });
    expect(await answer(await handle(request, { bodyTaken: true }))).toEqual({
      status: 500,
      code: 'internal_error',
      message:
        'The request body was already read by something in front of the Pet Store (a body parser?). ' +
        'Pass what it read as the `body` option, e.g. petstore(req, res, { body: req.body }).',
    });
  });

  it('answers a body a host parsed into a value with no JSON (a function) as an empty body', async () => {
    const request = new Request('http://localhost/v1/pets', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    });
    const message = 'The request body is empty; send a JSON object.';
    expect(await answer(await petstore().fetch(request, { body: () => 1 }))).toEqual({
      status: 400,
      code: 'invalid_request',
      message,
      details: [{ field: 'body', message }],
    });
  });

  it('answers a stream that fails midway with 400', async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"name":'));
        controller.error(new Error('connection lost'));
      },
    });
    const message = 'The request body ended before it was complete.';
    expect(await answer(await create(failing))).toEqual({ status: 400, code: 'invalid_request', message, details: [{ field: 'body', message }] });
  });
});

describe('the content of a create', () => {
  const invalid = (message: string) => ({ status: 400, code: 'invalid_request', message, details: [{ field: 'body', message }] });

  it.each([
    ['nothing', '', 'The request body is empty; send a JSON object.'],
    ['only spaces', ' \n ', 'The request body is empty; send a JSON object.'],
    ['text that is not JSON', '{"name":', 'The request body is not valid JSON.'],
    ['an array', '[]', 'The request body must be a JSON object.'],
    ['null', 'null', 'The request body must be a JSON object.'],
    ['a number', '5', 'The request body must be a JSON object.'],
    ['a string', '"Rex"', 'The request body must be a JSON object.'],
  ])('answers %s with 400 saying so', async (_, body, message) => {
    expect(await answer(await create(body))).toEqual(invalid(message));
  });

  it('answers a create sent with no body at all with 400', async () => {
    expect(await answer(await create(null))).toEqual(invalid('The request body is empty; send a JSON object.'));
  });

  it('answers bytes that are not UTF-8 with 400', async () => {
    expect(await answer(await create(new Uint8Array([123, 34, 0xff, 34, 58, 49, 125])))).toEqual(invalid('The request body is not valid UTF-8.'));
  });

  it('takes 32 levels of nesting, and answers 33 with 400; brackets inside strings, escaped quotes and all, do not count', async () => {
    const nested = (depth: number) => `{"name":"Rex","categoryId":1,"extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect((await create(nested(32))).status).toBe(201);
    expect(await answer(await create(nested(33)))).toEqual(invalid('The request body nests arrays or objects deeper than 32 levels.'));
    const quoted = `{"name":"Rex \\" ${'['.repeat(40)}","categoryId":1,"a":[[]],"b":[[]]}`;
    const created = await create(quoted);
    expect([created.status, (await created.json()).name]).toEqual([201, `Rex " ${'['.repeat(40)}`]);
  });

  it('counts nesting, not brackets: 40 empty arrays and 40 empty objects side by side are 3 levels deep', async () => {
    const body = `{"name":"Rex","categoryId":1,"arrays":[${Array(40).fill('[]').join(',')}],"objects":[${Array(40).fill('{}').join(',')}]}`;
    expect((await create(body)).status).toBe(201);
  });

  it.each([
    ['__proto__', '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}'],
    ['constructor', '{"name":"Rex","categoryId":1,"extra":{"constructor":1}}'],
    ['prototype', '{"name":"Rex","categoryId":1,"extra":[{"prototype":1}]}'],
    ['__proto__', '{"name":"Rex","categoryId":1,"\\u005f_proto__":1}'],
  ])('answers a body using the reserved key %s, at any depth or escaped, with 400 naming it', async (key, body) => {
    const response = await create(body);
    const message = `The request body uses a reserved key: ${key}.`;
    expect(await response.json()).toEqual({ code: 'invalid_request', message, status: 400, details: [{ field: key, message }] });
  });

  it('takes the reserved words as values, and in keys that only contain them', async () => {
    const response = await create('{"name":"constructor","categoryId":1,"my__proto__":1,"prototypes":2}');
    expect([response.status, (await response.json()).name]).toEqual([201, 'constructor']);
  });
});
