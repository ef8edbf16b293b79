/** The responses and headers of the API's OpenAPI document: every status the server can answer, and which headers each always carries. */
import { ref } from './json-schema.ts';
import { headerObject, jsonContent, type OpenApiObject, pattern } from './openapi-parts.ts';

/**
 * Error responses by status: the component's name, what it means, and whether the request always
 * got through the limits step first (then the quota headers, and the route's own, are always there).
 * A `4XX` or `5XX` key covers every status of its class not listed: OpenAPI's ranges.
 */
const ERROR_RESPONSES = {
  400: [
    'BadRequest',
    'Invalid query, path parameter, header or body (`invalid_request`); `details` lists each problem. A request refused at the edge, before it ' +
      'is counted (a malformed Host or target, a header that may appear once sent twice, unparseable HTTP), gets it without the quota headers.',
    false,
  ],
  401: ['Unauthorized', 'Missing, malformed or unknown API key (`unauthorized`).', true],
  404: ['NotFound', 'No such pet (`not_found`); or, without the deprecation and quota headers, a selector of no open sandbox (`NoOpenSandbox`).', false],
  410: ['Gone', 'The operation has passed its sunset date (`gone`).', true],
  413: [
    'PayloadTooLarge',
    'The body is larger than the configured limit (`payload_too_large`). Without the quota headers when node:http refused it first (chunk extensions too large).',
    false,
  ],
  415: ['UnsupportedMediaType', 'The body is not `application/json` (`unsupported_media_type`).', true],
  422: ['IdempotencyKeyReused', 'The `Idempotency-Key` was used with a different body in the last 24 hours (`idempotency_key_reused`).', true],
  429: [
    'TooManyRequests',
    'Quota exceeded (`rate_limited`), or the caller is temporarily banned for sending on after 429s (`key_banned`). Wait `Retry-After` seconds.',
    true,
  ],
  500: [
    'InternalError',
    'The server failed, for example its storage (`internal_error`). Without the quota headers when the limit store is what failed.',
    false,
  ],
  503: [
    'ServiceUnavailable',
    'Not available now (`service_unavailable`): an injected fault (the command\u2019s `--fail-rate`, the admin API, the test kit), a fake backend ' +
      'reset while the request waited, or a storage of your own that is down. Retry after `Retry-After` seconds.',
    false,
  ],
  507: [
    'InsufficientStorage',
    'A fake backend only (the admin API, the test kit): its worlds together hold as many pets as its bound allows (`insufficient_storage`); ' +
      'deleting a sandbox or a reset makes room.',
    true,
  ],
  '4XX': [
    'OtherClientError',
    'Another client error, as an Error body: 405 `method_not_allowed` with `Allow` to a method the path does not list; what node:http ' +
      'refuses before the API reads the request (408 `request_timeout`, 417 `expectation_failed`, 431 `headers_too_large`); or an ' +
      'injected fault, which may answer any status from 400 to 599.',
    false,
  ],
  '5XX': ['OtherServerError', 'Another server error, as an Error body: an injected fault, or an `ApiError` a storage of your own throws.', false],
} as const;

/**
 * A status (or class) the API's operations declare.
 *
 * @example
 * const statuses: ErrorStatus[] = [400, 401, 503, '4XX'];
 */
export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Every status (and class) declared, as the keys of {@link ERROR_RESPONSES} are written (Object.keys would give '400', not 400). */
const ERROR_STATUSES = Object.keys(ERROR_RESPONSES).map((key) => (/^[0-9]+$/.test(key) ? Number(key) : key) as ErrorStatus);

/** The component names of the error responses, by status. */
const ERROR_RESPONSE_NAMES = Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, [name]]) => [status, name])) as Record<ErrorStatus, string>;

/** The quota headers: on every response the limits step counted, errors included. */
const QUOTA_HEADER_DEFINITIONS: Record<string, OpenApiObject> = {
  'X-RateLimit-Limit': headerObject('Requests allowed in the window that binds first (fewest remaining).', { type: 'integer', minimum: 1 }),
  'X-RateLimit-Remaining': headerObject('Requests left in that window.', { type: 'integer', minimum: 0 }),
  'X-RateLimit-Reset': headerObject('When that window resets (or a ban ends), in Unix seconds.', { type: 'integer' }),
  RateLimit: headerObject(
    'draft-ietf-httpapi-ratelimit-headers-11: every window, binding first, e.g. `"minute";r=59;t=37, "day";r=990;t=50000`.',
    pattern('^"[a-z]+";r=[0-9]+;t=[0-9]+(, "[a-z]+";r=[0-9]+;t=[0-9]+)*$'),
  ),
  'RateLimit-Policy': headerObject(
    'draft-ietf-httpapi-ratelimit-headers-11: the plan, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`.',
    pattern('^"[a-z]+";q=[0-9]+;w=[0-9]+(, "[a-z]+";q=[0-9]+;w=[0-9]+)*$'),
  ),
};

/** The CORS headers: on every response to a request whose `Origin` the `cors` option allows (`Vary` whenever the option is set). */
const CORS_HEADER_DEFINITIONS: Record<string, OpenApiObject> = {
  'Access-Control-Allow-Origin': headerObject('The request\u2019s `Origin`, when the `cors` option allows it.', { type: 'string' }, false),
  'Access-Control-Allow-Methods': headerObject('With CORS on: the methods the API serves.', pattern('^[A-Z]+(, [A-Z]+)*$'), false),
  'Access-Control-Allow-Headers': headerObject('With CORS on: the request headers a browser may send.', { type: 'string' }, false),
  'Access-Control-Expose-Headers': headerObject('With CORS on: the response headers a browser script may read.', { type: 'string' }, false),
  'Access-Control-Max-Age': headerObject(
    'With CORS on: how long a browser may keep a preflight\u2019s answer, in seconds.',
    { type: 'integer', minimum: 0 },
    false,
  ),
  'Access-Control-Allow-Private-Network': headerObject(
    'On a preflight with `Access-Control-Request-Private-Network: true` from an origin the `cors` option allows: `true` (Private Network Access).',
    { type: 'string', enum: ['true'] },
    false,
  ),
  Vary: headerObject('`Origin` whenever the `cors` option is set: whether CORS headers come depends on it.', { type: 'string' }, false),
};

const refsTo = (definitions: Record<string, unknown>) => Object.fromEntries(Object.keys(definitions).map((name) => [name, ref('headers', name)]));

/** References to the quota headers, required. */
const QUOTA_HEADERS = refsTo(QUOTA_HEADER_DEFINITIONS);
/** References to the CORS headers, each optional. */
const CORS_HEADERS = refsTo(CORS_HEADER_DEFINITIONS);

/**
 * Headers every response of the deprecated `GET /pets/{petId}` carries once it reached its route.
 *
 * @example
 * response('The pet.', { content: ref('schemas', 'Pet'), headers: DEPRECATION_HEADERS });
 */
export const DEPRECATION_HEADERS = { Deprecation: ref('headers', 'Deprecation'), Sunset: ref('headers', 'Sunset'), Link: ref('headers', 'SuccessorLink') };

/** The statuses only `GET /pets/{petId}` answers: their shared definitions carry its deprecation headers. */
const DEPRECATED_ONLY: readonly ErrorStatus[] = [404, 410];

/**
 * The answers a fake backend's sandbox selector gives any operation, before its route and the limits
 * step (so with none of their headers): by component name, the status and what it means.
 */
const SANDBOX_RESPONSES = {
  // Without sandboxes, `Petstore-Sandbox` and `baggage` are ignored: only a fake backend gives these.
  NoOpenSandbox: [
    404,
    'A fake backend\u2019s answer to a sandbox selector (`Petstore-Sandbox`, or `petstore.sandbox` in `baggage`) of no open sandbox (`not_found`).',
  ],
  SandboxConflict: [409, 'A fake backend\u2019s answer to a key of one sandbox with the selector of another (`sandbox_conflict`).'],
} as const;

const REQUIRED_HEADERS: Record<string, OpenApiObject> = {
  'WWW-Authenticate': headerObject(
    'RFC 6750 challenge: `Bearer realm="petstore"`, with `error="invalid_token"` for an unknown key.',
    pattern('^Bearer realm="petstore"(, error="invalid_token")?$'),
  ),
  SuccessorLink: headerObject('RFC 8288 link to the replacement.', pattern('^<[^>]+/pets>; rel="successor-version"$')),
  Deprecation: headerObject('RFC 9745: when the operation was deprecated, as `@<unix seconds>`.', pattern('^@[0-9]+$')),
  Sunset: headerObject('RFC 8594: when the operation stops working, as an HTTP date.'),
  ...QUOTA_HEADER_DEFINITIONS,
};

/** When a header that is required elsewhere may be missing: said once, on its `.optional` component. */
const ABSENT_WHEN: Record<string, string> = {
  'WWW-Authenticate': 'Sent with a 401.',
  ...Object.fromEntries(
    ['SuccessorLink', 'Deprecation', 'Sunset'].map((name) => [
      name,
      'Absent on a CORS preflight, and on a request refused before it reached its route (at the edge, or by a sandbox selector).',
    ]),
  ),
  ...Object.fromEntries(
    Object.keys(QUOTA_HEADER_DEFINITIONS).map((name) => [
      name,
      'Absent when the request was not counted: a CORS preflight, a request refused before the limits step, or a limit store that failed.',
    ]),
  ),
};

/**
 * `headers` (references to components) made optional: references to each one's `.optional`
 * component, since `required` belongs to the header object, not to the response listing it.
 *
 * @example
 * optional({ Sunset: ref('headers', 'Sunset') }); // { Sunset: { $ref: '#/components/headers/Sunset.optional' } }
 */
export function optional(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, header]) => {
      const target = (header as { $ref?: string }).$ref ?? '';
      const component = target.slice(target.lastIndexOf('/') + 1);
      if (HEADER_COMPONENTS[component]?.required === false) return [name, header];
      if (ABSENT_WHEN[component] === undefined) throw new Error(`no optional form of the header ${name}`);
      return [name, ref('headers', `${component}.optional`)];
    }),
  );
}

/**
 * A response with the quota headers (required, or optional when `counted` is false), the CORS
 * headers, and `headers` of its own.
 *
 * @example
 * response('The pet.', { content: ref('schemas', 'Pet') });
 */
export function response(
  description: string,
  { content, headers = {}, counted = true }: { content?: unknown; headers?: OpenApiObject; counted?: boolean },
): OpenApiObject {
  const quota = counted ? QUOTA_HEADERS : optional(QUOTA_HEADERS);
  return { description, headers: { ...headers, ...quota, ...CORS_HEADERS }, ...(content === undefined ? {} : { content: jsonContent(content) }) };
}

/** The full definition of the error response for `status`, with `routeHeaders` (the route's own headers) when it carries them. */
function errorResponseObject(status: ErrorStatus, routeHeaders: OpenApiObject = {}): OpenApiObject {
  const [, description, counted] = ERROR_RESPONSES[status];
  const headers: OpenApiObject = counted ? { ...routeHeaders } : optional(routeHeaders);
  // An answer given before the limits step may come before the route too (the 404 to a sandbox selector): without the route's headers.
  if (DEPRECATED_ONLY.includes(status)) Object.assign(headers, counted ? DEPRECATION_HEADERS : optional(DEPRECATION_HEADERS));
  if (status === 429 || status === 503) headers['Retry-After'] = ref('headers', 'Retry-After');
  if (status === 401) headers['WWW-Authenticate'] = ref('headers', 'WWW-Authenticate');
  // Another 4xx may be a 405 (with Allow) to a method the path does not list, or an injected 401 where no operation declares one.
  if (status === '4XX') Object.assign(headers, optional({ Allow: ref('headers', 'Allow'), 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') }));
  return response(description, { content: ref('schemas', 'Error'), headers, counted });
}

/**
 * `components.headers`: each header once, and an `.optional` form of those some responses lack.
 *
 * @example
 * HEADER_COMPONENTS['X-RateLimit-Limit.optional'].required; // false
 */
export const HEADER_COMPONENTS: Record<string, OpenApiObject> = {
  NextLink: headerObject(
    'RFC 8288 link to the next page, sent while more pets match.',
    pattern('^<(https?://[^/>]+)?/[^>]*[?&]cursor=[A-Za-z0-9_-]+[^>]*>; rel="next"$'),
    false,
  ),
  'Retry-After': headerObject('Whole seconds to wait before retrying (at least 1).', { type: 'integer', minimum: 1 }),
  // Only OPTIONS lists it (a 405 answers a method no operation describes), and a preflight lacks it.
  Allow: headerObject(
    'The methods the path answers, e.g. `GET, HEAD, POST, OPTIONS`; absent on a CORS preflight. Any other method answers 405 ' +
      '`method_not_allowed` with this header, the quota headers and an Error body.',
    pattern('^[A-Z]+(, [A-Z]+)*$'),
    false,
  ),
  ...REQUIRED_HEADERS,
  ...Object.fromEntries(
    Object.entries(REQUIRED_HEADERS).map(([name, header]) => [
      `${name}.optional`,
      { ...header, required: false, description: `${header.description} ${ABSENT_WHEN[name]}` },
    ]),
  ),
  ...CORS_HEADER_DEFINITIONS,
};

/**
 * `components.responses`: every error response, shared by the operations that answer it.
 *
 * @example
 * Object.keys(RESPONSE_COMPONENTS); // ['BadRequest', 'Unauthorized', …, 'OtherServerError', 'NoOpenSandbox', 'SandboxConflict']
 */
export const RESPONSE_COMPONENTS: Record<string, OpenApiObject> = {
  ...Object.fromEntries(ERROR_STATUSES.map((status) => [ERROR_RESPONSE_NAMES[status], errorResponseObject(status)])),
  ...Object.fromEntries(
    Object.entries(SANDBOX_RESPONSES).map(([name, [, description]]) => [name, response(description, { content: ref('schemas', 'Error'), counted: false })]),
  ),
};

/**
 * The error responses of an operation: references to the shared ones, or, for a route with
 * headers of its own (`GET /pets/{petId}`), inline copies carrying them too; and the sandbox
 * selector's answers, which any operation may give (a 404 of its own covers the selector's too).
 *
 * @example
 * errorResponses([400, 401, 503]); // { 400: { $ref: '#/components/responses/BadRequest' }, 404: { $ref: '#/components/responses/NoOpenSandbox' }, … }
 */
export function errorResponses(statuses: readonly ErrorStatus[], routeHeaders?: OpenApiObject): OpenApiObject {
  return Object.fromEntries([
    ...Object.entries(SANDBOX_RESPONSES)
      .filter(([, [status]]) => !statuses.some((listed) => listed === status))
      .map(([name, [status]]) => [status, ref('responses', name)]),
    ...statuses.map((status) => [
      status,
      !routeHeaders || DEPRECATED_ONLY.includes(status) ? ref('responses', ERROR_RESPONSE_NAMES[status]) : errorResponseObject(status, routeHeaders),
    ]),
  ]);
}
