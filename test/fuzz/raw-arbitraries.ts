/** fast-check generators for raw HTTP/1.x bytes: odd request lines, targets, Host values, header sets and framing. */
import fc from 'fast-check';

/** Why a case may end without an answer to its last request (see the suite's header comment). */
export type Exception = 'nothing sent' | 'cut short' | 'TLS';

/** One generated exchange: the bytes, and what the client may expect back. */
export interface RawCase {
  /** Exactly the bytes sent, as a latin1 string (one character per byte). */
  readonly bytes: string;
  /** Method of each request as framed, in order: the answer to a HEAD has no body. */
  readonly methods: readonly string[];
  /** Answers the client waits for: one per request it framed (garbage after a body counts as one). */
  readonly expected: number;
  /** Close the write side after sending, so a cut-short request ends in EOF instead of a wait. */
  readonly halfClose: boolean;
  /** Set when the last request may go unanswered. */
  readonly exception?: Exception;
  /** Framing and notable traits, to group unanswered cases by what they have in common. */
  readonly label: string;
}

/** UTF-8 bytes of a string, as a latin1 string. */
const bytesOf = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
const binary = (max: number) => fc.uint8Array({ minLength: 1, maxLength: max }).map((a) => Buffer.from(a).toString('latin1'));

const method = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS') },
  { weight: 3, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT') },
  { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'Head', 'options') },
  { weight: 1, arbitrary: fc.constantFrom('', 'G ET', 'GET\0', 'PRI', 'FOO', 'M-SEARCH', 'PROPFIND', 'GETT', 'QUERY') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 8 }) },
);

const target = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      '/v1/pets',
      '/v1/pets?limit=2',
      '/v1/pets?status=sold&limit=100',
      '/v1/pets/1',
      '/v1/pets/0',
      '/v1/pets/abc',
      '/v1/openapi.json',
      '/v1',
      '/v1/',
      '/v1/nope',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom('/', '/pets', '/v2/pets', '/healthz', '/__admin', '/v1pets', '//v1/pets', '/V1/pets', '/favicon.ico') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'http://h/v1/pets',
      'http://evil.example/v1/pets',
      'https://h/v1/pets',
      'http://h:99999/v1/pets',
      'http://[::1]/v1/pets',
      'ftp://h/v1/pets',
      'http:/v1/pets',
      'http://user:pw@h/v1/pets',
      'HTTP://H/v1/pets',
      'http://h',
      'http://h?x',
      'http://h/v1/pets#frag',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('*', '**', '*/v1/pets') },
  { weight: 1, arbitrary: fc.constantFrom('h:80', 'localhost:443', '[::1]:8080', 'evil.example:1', 'h:', ':80') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '/v1/%70ets',
      '/v1/pets/%31',
      '/v1/pets%2F1',
      '/%76%31/pets',
      '/v1/pets/%',
      '/v1/pets/%zz',
      '/v1/pets/%00',
      '/v1/pets?limit=%ff',
      '/v1/pets/%C0%AE',
      '/v1/pets?status=%E2%82%AC',
      '/v1/pets/%2e%2e/openapi.json',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom('/v1/../v1/pets', '/v1/pets/../openapi.json', '/x/../v1/pets', '/v1/./pets', '/..', '/../../etc/passwd', '/v1/pets/..'),
  },
  { weight: 1, arbitrary: fc.constantFrom(100, 2_000, 8_000, 17_000).map((n) => `/v1/pets?limit=1&x=${'a'.repeat(n)}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/v1/pets\x01', '/v1/pets\t1', '/v1/\x7fpets', '/v1/pets\0', '/v1/pets\r', '/v1/pets 1', ' /v1/pets', '/v1/ pets', ''),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => bytesOf(`/v1/${s}`)) },
);

const version = fc.oneof(
  { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 3, arbitrary: fc.constant('HTTP/1.0') },
  { weight: 2, arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/0.9', 'HTTP/1.2', 'HTTP/3', 'http/1.1', 'HTTP/1.1 ', 'HTTP/11', 'HTTP/1.1x', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 10 }) },
);

const host = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.constantFrom(['Host: localhost'], ['Host: petstore.test'], ['Host: 127.0.0.1:8080'], ['Host: [::1]:80'], ['host: API.example:443']),
  },
  { weight: 2, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.constantFrom(['Host: a', 'Host: a'], ['Host: a', 'Host: b'], ['Host: a, b']) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        'a b',
        '[::1',
        'h:p/v1/pets?',
        'evil.example',
        '',
        'h:99999',
        'h:',
        'h:-1',
        'user@h',
        'h/x',
        '[::1]x',
        'h\t',
        'a'.repeat(300),
        'a.'.repeat(200),
      )
      .map((value) => [`Host: ${value}`]),
  },
);

const authorization = (key: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom([`Authorization: Bearer ${key}`], [`authorization: bearer ${key}`], [`Authorization: BEARER ${key}`]) },
    { weight: 3, arbitrary: fc.constant([]) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ['Authorization: Bearer nope'],
        [`Authorization: Bearer ${key}x`],
        [`Authorization: Basic ${key}`],
        ['Authorization: Bearer'],
        [`Authorization: Bearer  ${key}`],
        [`Authorization: Bearer ${key}`, `Authorization: Bearer ${key}`],
        ['Authorization: Bearer a, Bearer b'],
        [`Authorization: Bearer ${key}, Bearer ${key}`],
        [`Authorization: Bearer ${key}`, 'Authorization: Bearer nope'],
        ['Authorization: '],
      ),
    },
  );

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant(['Content-Type: application/json']) },
  { weight: 2, arbitrary: fc.constant([]) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        '',
        'application/json, text/plain',
        'APPLICATION/JSON',
        'application/problem+json',
        'application/json; charset=latin1',
      )
      .map((value) => [`Content-Type: ${value}`]),
  },
  { weight: 1, arbitrary: fc.constant(['Content-Type: application/json', 'Content-Type: text/plain']) },
);

/** Header lines that stress the parser or the edge, any number of them. */
const extraHeader = (key: string) =>
  fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom(['Expect: 100-continue'], ['Expect: foo'], ['Expect: 100-Continue'], ['Expect: 100-continue', 'Expect: 100-continue']),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ['Connection: close'],
        ['Connection: keep-alive'],
        ['Connection: Upgrade', 'Upgrade: websocket'],
        ['Connection: Upgrade, HTTP2-Settings', 'Upgrade: h2c', 'HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA'],
        ['Connection: Transfer-Encoding'],
        ['Connection: x, close'],
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          name: fc.constantFrom('X', 'X-Empty', 'X-Empty-Header-Name'),
          count: fc.oneof(fc.nat({ max: 20 }), fc.constantFrom(1_000, 2_000, 2_100), fc.nat({ max: 2_100 })),
        })
        .map(({ name, count }) => Array.from({ length: count }, () => `${name}:`)),
    },
    { weight: 1, arbitrary: fc.constantFrom(['X-Fold: a', ' b'], [`Authorization: Bearer`, ` ${key}`], ['X-Fold: a', '\tb']) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ['X-Nul: a\0b'],
        ['X-N\0ul: a'],
        ['Bad Name: x'],
        ['NoColon'],
        [': empty-name'],
        ['X-Long: ' + 'a'.repeat(17_000)],
        ['X-Latin: \xe9\xff'],
        ['X-Ctl: a\x01b'],
      ),
    },
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        ['Origin: https://app.example', 'Access-Control-Request-Method: POST'],
        ['Origin: null'],
        ['Idempotency-Key: k1'],
        ['Idempotency-Key: '],
        ['X-Forwarded-For: 1.2.3.4'],
        ['Forwarded: for=evil'],
        ['Accept: */*'],
        ['User-Agent: fuzz'],
      ),
    },
  );

/** Request bodies: a valid pet, broken JSON, one over `maxBodyBytes`, raw bytes, nothing. */
const bodyText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('{"name":"Rex","categoryId":1}', '{"name":"Tom","categoryId":2,"status":"sold"}') },
  { weight: 2, arbitrary: fc.constantFrom('', '{', '[]', 'null', '{"name":""}', '{"__proto__":{}}', '{"name":"x","categoryId":9007199254740993}') },
  { weight: 1, arbitrary: fc.constant(`{"name":"${'x'.repeat(1_500)}","categoryId":1}`) },
  { weight: 1, arbitrary: binary(64) },
);

/** Bytes after a body that the server reads as a next request: garbage, or a smuggled request. */
const trailing = (key: string) =>
  fc.constantFrom(
    'xyz\r\n\r\n',
    '}\r\n\r\n',
    '\0\0\r\n\r\n',
    'HTTP/1.1 200 OK\r\n\r\n',
    'GET /v1/pets HTTP/1.1\r\nHost: smuggled\r\n\r\n',
    `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`,
  );

function chunk(body: string, pieces: number, upper: boolean, extension: boolean): string {
  const size = Math.ceil(body.length / Math.max(1, pieces)) || 1;
  let out = '';
  for (let at = 0; at < body.length; at += size) {
    const part = body.slice(at, at + size);
    const hex = part.length.toString(16);
    out += `${upper ? hex.toUpperCase() : hex}${extension ? ';a=b' : ''}\r\n${part}\r\n`;
  }
  return out;
}

interface Framed {
  headers: string[];
  payload: string;
  kind: string;
  extra?: string;
  cutShort?: true;
}

/** Framing: how the body is delimited, honestly or not. Every variant ends without the client waiting. */
const framing = (key: string) =>
  fc
    .record({
      body: bodyText,
      pieces: fc.integer({ min: 1, max: 3 }),
      upper: fc.boolean(),
      extension: fc.boolean(),
      extra: trailing(key),
      short: fc.integer({ min: 1, max: 40 }),
    })
    .chain(({ body, pieces, upper, extension, extra, short }) => {
      const chunked = chunk(body, pieces, upper, extension);
      const length = body.length;
      const options: fc.Arbitrary<Framed>[] = [
        fc.constant({ headers: [], payload: '', kind: 'no body' }),
        fc.constant({ headers: [`Content-Length: ${length}`], payload: body, kind: 'exact length' }),
        fc.constant({ headers: ['Transfer-Encoding: chunked'], payload: `${chunked}0\r\n\r\n`, kind: 'chunked' }),
        fc.constant({ headers: ['Transfer-Encoding: chunked'], payload: `${chunked}0\r\nX-Trailer: t\r\n\r\n`, kind: 'chunked with trailer' }),
        fc.constant({ headers: [`Content-Length: ${length}`], payload: body + extra, kind: 'body longer than Content-Length', extra }),
        fc.constant({ headers: [], payload: (body || 'x') + extra, kind: 'body without framing', extra }),
        fc.constant({ headers: [`Content-Length: ${length + short}`], payload: body, kind: 'body shorter than Content-Length', cutShort: true }),
        fc.constant({ headers: ['Content-Length: 100000'], payload: body, kind: 'Content-Length over the limit', cutShort: true }),
        fc.constant({ headers: ['Transfer-Encoding: chunked'], payload: chunked, kind: 'chunked without its last chunk', cutShort: true }),
        fc
          .constantFrom('zz\r\nabc\r\n0\r\n\r\n', '-1\r\n\r\n', '0x3\r\nabc\r\n0\r\n\r\n', `${body}\r\n\r\n`, '3\r\nabcdef\r\n0\r\n\r\n', '3\nabc\n0\n\n')
          .map((payload) => ({ headers: ['Transfer-Encoding: chunked'], payload, kind: 'malformed chunks' })),
        fc.constant({
          headers: [`Content-Length: ${length}`, 'Transfer-Encoding: chunked'],
          payload: `${chunked}0\r\n\r\n`,
          kind: 'Content-Length and chunked',
        }),
        fc
          .constantFrom(
            ['abc'],
            ['-1'],
            ['1.0'],
            [`+${length}`],
            [` ${length} `],
            ['0x10'],
            ['99999999999999999999'],
            [''],
            [`${length}, ${length}`],
            [`${length}`, `${length}`],
            [`${length}`, `${length + 1}`],
          )
          .map((values) => ({ headers: values.map((v) => `Content-Length: ${v}`), payload: body, kind: 'odd Content-Length' })),
        fc
          .constantFrom(
            ['identity'],
            ['gzip'],
            ['gzip, chunked'],
            ['chunked, chunked'],
            ['Chunked'],
            ['chunked '],
            ['chunked;q=1'],
            ['x-chunked'],
            ['chunked', 'chunked'],
            ['gzip', 'chunked'],
          )
          .map((values) => {
            const chunkedLast = /chunked\s*$/i.test(values.at(-1)!);
            return {
              headers: values.map((v) => `Transfer-Encoding: ${v}`),
              payload: chunkedLast ? `${chunked}0\r\n\r\n` : body,
              kind: 'odd Transfer-Encoding',
            };
          }),
      ];
      // The honest framings (the first four) are as frequent as all the broken ones together.
      return fc.oneof(...options.map((arbitrary, i) => ({ weight: i < 4 ? 3 : 1, arbitrary })));
    });

/** A valid request sent first on the same connection, to check pipelining survives the fuzzed one. */
const firstRequest = (key: string) =>
  fc.constantFrom(
    { method: 'GET', text: `GET /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n\r\n` },
    { method: 'HEAD', text: 'HEAD /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n' },
    {
      method: 'POST',
      text: `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 29\r\n\r\n{"name":"Rex","categoryId":1}`,
    },
  );

/** A request assembled from the parts above. */
const request = (key: string) =>
  fc
    .record({
      method,
      target,
      version,
      separator: fc.constantFrom(' ', ' ', ' ', ' ', '  ', '\t'),
      eol: fc.oneof({ weight: 14, arbitrary: fc.constant('\r\n') }, { weight: 1, arbitrary: fc.constantFrom('\n', 'mixed') }),
      host,
      authorization: authorization(key),
      contentType,
      extras: fc.oneof(fc.constant([]), fc.array(extraHeader(key), { maxLength: 3 })),
      framing: framing(key),
      first: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: firstRequest(key) }),
    })
    .map((r): RawCase => {
      const headers = [...r.host, ...r.authorization, ...r.contentType, ...r.extras.flat(), ...r.framing.headers];
      const startLine = [r.method, r.target, r.version].filter((part, i) => i < 2 || part !== '').join(r.separator);
      // Bare LF line endings everywhere, or on every other line ("mixed").
      const lines = [startLine, ...headers].map((line, i) => line + (r.eol === 'mixed' ? (i % 2 ? '\n' : '\r\n') : r.eol));
      const fuzzed = `${lines.join('')}${r.eol === '\n' ? '\n' : '\r\n'}${r.framing.payload}`;
      const methods = [...(r.first ? [r.first.method] : []), r.method, ...(r.framing.extra ? ['GET'] : [])];
      // What unanswered cases are grouped by: CONNECT, Upgrade and pipelining fail for their own reasons, whatever the framing.
      const upgrade = headers.some((line) => /^upgrade:/i.test(line));
      const label = r.method === 'CONNECT' ? 'CONNECT' : upgrade ? 'with Upgrade' : r.first ? 'pipelined after a valid request' : r.framing.kind;
      return {
        bytes: (r.first?.text ?? '') + fuzzed,
        methods,
        expected: methods.length,
        halfClose: r.framing.cutShort === true,
        ...(r.framing.cutShort ? { exception: 'cut short' as const } : {}),
        label,
      };
    });

/** Whole exchanges that are not a request line at all. */
const oddities = fc.oneof(
  fc.constant<RawCase>({ bytes: '', methods: [], expected: 0, halfClose: true, exception: 'nothing sent', label: 'nothing sent' }),
  fc
    .integer({ min: 1, max: 4 })
    .map((n): RawCase => ({ bytes: '\r\n'.repeat(n), methods: [], expected: 0, halfClose: true, exception: 'nothing sent', label: 'empty lines only' })),
  binary(48).map(
    (random): RawCase => ({
      bytes: `\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03${random}`,
      methods: ['?'],
      expected: 1,
      halfClose: false,
      exception: 'TLS',
      label: 'TLS ClientHello',
    }),
  ),
  fc.constant<RawCase>({ bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', methods: ['PRI'], expected: 1, halfClose: false, label: 'HTTP/2 preface' }),
  binary(200).map((random): RawCase => ({ bytes: `${random}\r\n\r\n`, methods: ['?'], expected: 1, halfClose: false, label: 'random bytes' })),
);

/** One fuzzed exchange; `key` is a valid API key, used in a share of the requests so routes past auth run. */
export const rawCase = (key: string): fc.Arbitrary<RawCase> => fc.oneof({ weight: 30, arbitrary: request(key) }, { weight: 1, arbitrary: oddities });
