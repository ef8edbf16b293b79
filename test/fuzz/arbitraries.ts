/** fast-check generators for requests a careless client or an attacker would send. */
import fc from 'fast-check';
import { encodeCursor } from '../../src/operations/inputs.ts';

export const FUZZ_KEY = 'fuzz-key-123';
export const ORIGIN = 'http://petstore.fuzz';

/** Numbers that break naive JSON handling: edges of the safe range, huge, tiny, negative zero. */
const nastyNumber = fc.oneof(fc.integer(), fc.constantFrom(0, -0, 1, -1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 2 ** 63, 1e308, 5e-324, 1.5), fc.double());
/** Raw JSON number text, including literals JSON.parse would round. */
const nastyNumberText = fc.oneof(
  nastyNumber.map((n) => (Number.isFinite(n) ? String(n) : '1e999')),
  fc.constantFrom('9007199254740993', '-9007199254740993', '1e400', '0.1e1', '1.0', '-0', '00', '1E2'),
);
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', '\u0000', '\\uD800', '\uD83D\uDC36', '<script>', '__proto__', 'a'.repeat(5000)),
);
/** Text that lands inside a JSON string literal, lone surrogate escapes included. */
const jsonStringLiteral = fc.oneof(
  nastyString.map((s) => JSON.stringify(s)),
  fc.constantFrom('"\\ud800"', '"a\\udc00b"', '"\\u0000"', '"\\"'),
);
const status = fc.oneof(fc.constantFrom('available', 'pending', 'sold'), nastyString);

/** Pet-shaped JSON text, well- or ill-formed in its fields. */
const petText = fc
  .record(
    {
      name: jsonStringLiteral,
      categoryId: fc.oneof(nastyNumberText, jsonStringLiteral, fc.constant('null')),
      status: status.map((s) => JSON.stringify(s)),
      id: nastyNumberText,
      extraKey: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'x', 'name'),
      extraValue: fc.constantFrom('{"polluted":true}', '1', '[]', 'null'),
    },
    { requiredKeys: [] },
  )
  .map(({ extraKey, extraValue, ...fields }) => {
    const parts = Object.entries(fields).map(([key, value]) => `"${key}":${value}`);
    if (extraKey && extraValue) parts.push(`"${extraKey}":${extraValue}`);
    return `{${parts.join(',')}}`;
  });

/** A pet the API must accept, so fuzzing also walks the happy path and fills the store. */
const validPetText = fc
  .record(
    {
      name: fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
      categoryId: fc.maxSafeInteger(),
      status: fc.constantFrom('available', 'pending', 'sold'),
    },
    { requiredKeys: ['name', 'categoryId'] },
  )
  .map((pet) => JSON.stringify(pet));

const deepNesting = fc.nat({ max: 20_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth));
const deepObject = fc.nat({ max: 5_000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** A request body: nothing, JSON text of many shapes, or raw bytes. */
export const body = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: petText },
  { weight: 4, arbitrary: validPetText },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.oneof(deepNesting, deepObject) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.nat({ max: 5000 }).map((n) => `{"name":"${'x'.repeat(n)}","categoryId":1}`) },
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'TRACE', 'FOO') },
);

const segment = fc.oneof(
  fc.constantFrom('1', '2', '0', '-1', '1.5', '9007199254740993', '007', '%00', '..', '%2e%2e', 'pets', ''),
  fc.nat().map(String),
  nastyString.map(encodeURIComponent),
);
const path = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('/v1/pets', '/v1/openapi.json') },
  { weight: 3, arbitrary: segment.map((s) => `/v1/pets/${s}`) },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 4 }).map((s) => `/v1/${s.join('/')}`) },
  { weight: 1, arbitrary: fc.constantFrom('/', '/v1', '/v1/', '/v2/pets', '/pets', '/v1pets') },
);

const queryValue = fc.oneof(
  fc.constantFrom('1', '20', '100', '0', '101', '-1', '1.5', '1e2', '', 'abc', '99999999999999999999'),
  fc.constantFrom('available', 'pending', 'sold', 'lost'),
  fc
    .nat({ max: 1000 })
    .filter((n) => n > 0)
    .map(encodeCursor),
  nastyString,
);
const query = fc.array(fc.tuple(fc.constantFrom('limit', 'status', 'cursor', 'page', '__proto__'), queryValue), { maxLength: 4 });

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(`Bearer ${FUZZ_KEY}`, `bearer ${FUZZ_KEY}`) },
  { weight: 2, arbitrary: fc.constantFrom(undefined, 'Bearer', `Basic ${FUZZ_KEY}`, 'Bearer nope', `Bearer ${FUZZ_KEY}x`) },
  { weight: 1, arbitrary: nastyString.map((s) => s.replace(/[\r\n\0]/g, '')).filter((s) => /^[\t\x20-\x7e]*$/.test(s)) },
);
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      undefined,
      'text/plain',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/merge-patch+json',
      'multipart/form-data',
    ),
  },
);

/** One generated request, described as data so a failing case prints readably. */
export const requestSpec = fc.record({
  method,
  path,
  query,
  authorization,
  contentType,
  origin: fc.option(fc.constantFrom('https://app.example', 'null'), { nil: undefined }),
  preflight: fc.boolean(),
  body,
  clientAddress: fc.constantFrom('10.0.0.1', '10.0.0.2', '2001:db8::1', undefined),
  advanceMs: fc.oneof(fc.constant(0), fc.nat({ max: 120_000 })),
});

export type RequestSpec = typeof requestSpec extends fc.Arbitrary<infer T> ? T : never;

/** The Request a spec describes, or `undefined` when fetch itself refuses to build it. */
export function toRequest(spec: RequestSpec): Request | undefined {
  const url = new URL(`${ORIGIN}${spec.path}`);
  for (const [name, value] of spec.query) url.searchParams.append(name, value);
  const headers = new Headers();
  if (spec.authorization !== undefined) headers.set('authorization', spec.authorization);
  if (spec.contentType !== undefined) headers.set('content-type', spec.contentType);
  if (spec.origin) headers.set('origin', spec.origin);
  if (spec.preflight) headers.set('access-control-request-method', 'POST');
  const hasBody = spec.body !== undefined && spec.method !== 'GET' && spec.method !== 'HEAD';
  try {
    return new Request(url, { method: spec.method, headers, body: hasBody ? spec.body : undefined });
  } catch {
    return undefined; // e.g. TRACE, which fetch forbids
  }
}
