/** fast-check arbitraries of requests read off an OpenAPI document: every operation, with valid and invalid parameters, bodies, credentials, methods and Host. */
import fc from 'fast-check';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked by any path the spec allows
type Json = Record<string, any>;

/** A request to send as is: `headers` are raw lines, so one name may repeat and Host may lie. */
export interface PlannedRequest {
  readonly method: string;
  /** Path and query from the origin, e.g. `/v1/pets?limit=2`. */
  readonly target: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
  /** The operation it was generated from (`GET /pets`), or `unknown path`. */
  readonly operation: string;
}

/** What a generated request may present: the document's own bearer credential and the other document's. */
export interface Credentials {
  readonly own: string;
  readonly other: string;
  /** A key with a tiny plan, to reach 429 and bans quickly; the admin document never sees it as valid. */
  readonly tiny: string;
}

/**
 * Values the document allows but a test cannot take: a network fault answers nothing (a hang
 * waits for the client's timeout), a long delay is a real wait, a probability is a coin only a
 * seed should toss. Keyed by property name wherever it appears.
 */
const TAME: Readonly<Record<string, fc.Arbitrary<unknown> | 'omit'>> = {
  network: 'omit',
  delayMs: fc.integer({ min: 0, max: 2 }),
  probability: fc.constantFrom(0, 1),
  path: fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/openapi.json', '/v1/nowhere'),
  method: fc.constantFrom('GET', 'POST', 'HEAD', 'get'),
  advanceMs: fc.oneof(fc.integer({ min: 0, max: 120_000 }), fc.constantFrom(86_400_000, 8_640_000_000_000_000)),
  name: fc.oneof(fc.constantFrom('Rex', 'Tom', 'Kit'), fc.string({ minLength: 1, maxLength: 8 })),
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND'];

/** A value valid under `schema` (as far as its keywords go: `allOf` constraints are not solved, so some are refused). */
export function schemaValue(document: Json, schema: Json, name?: string): fc.Arbitrary<unknown> {
  const tame = name === undefined ? undefined : TAME[name];
  if (tame && tame !== 'omit') return tame;
  if (schema.$ref) return schemaValue(document, at(document, schema.$ref), name);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices)
    return fc.oneof(...(choices as Json[]).map((choice) => schemaValue(document, { ...schema, anyOf: undefined, oneOf: undefined, ...choice }, name)));
  switch (schema.type) {
    case 'integer': {
      const min = Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 31));
      const max = Math.min(schema.maximum ?? 2 ** 31, 2 ** 31);
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(schema.minimum ?? min, schema.maximum ?? max));
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'date-time')
        return fc.date({ min: new Date('2020-01-01'), max: new Date('2040-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' });
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, 12) });
    case 'array':
      return fc.array(schemaValue(document, schema.items ?? {}), { maxLength: 3 });
    case 'object': {
      const properties = Object.entries<Json>(schema.properties ?? {}).filter(([key]) => TAME[key] !== 'omit');
      const required = (schema.required ?? []) as string[];
      const shape = Object.fromEntries(properties.map(([key, property]) => [key, schemaValue(document, property, key)]));
      return fc.record(shape, { requiredKeys: required.filter((key) => key in shape) });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** A body the operation refuses, or one that only looks right. */
const badBody = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof(
    valid.map((value) => (value && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify({ ...value, extra: 1 }) : JSON.stringify([value]))),
    valid.map((value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? JSON.stringify(
            Object.fromEntries(
              Object.keys(value)
                .slice(1)
                .map((k) => [k, 1]),
            ),
          )
        : '{}',
    ),
    fc.constantFrom('not json', '[]', 'null', '', '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}', '{"name":"Rex","categoryId":9007199254740993}'),
    fc.constant(`{"name":"${'a'.repeat(70_000)}","categoryId":1}`),
  );

/** Strings a parameter of this schema must refuse (when anything can be refused). */
const badParameter = fc.constantFrom('0', '-1', 'abc', '1.5', '101', '99999999999999999999', 'dead', '%00', 'a%20b');

/** A credential for the request: mostly the right one, then every way to get it wrong (sent twice included). */
function credentialLines({ own, other, tiny }: Credentials, isPublic: boolean): fc.Arbitrary<[string, string][]> {
  const bearer = (value: string): [string, string] => ['authorization', value];
  const wrong: [string, string][][] = [
    [bearer(`Bearer ${own}x`)],
    [bearer(`Basic ${own}`)],
    [bearer('Bearer')],
    [bearer(`Bearer ${other}`)],
    [bearer(`bearer ${tiny}`)],
    [bearer(`Bearer ${own}`), bearer(`Bearer ${own}`)],
  ];
  return fc.oneof(
    { weight: isPublic ? 2 : 8, arbitrary: fc.constant<[string, string][]>([bearer(`Bearer ${own}`)]) },
    { weight: 2, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 6, arbitrary: fc.constantFrom(...wrong) },
  );
}

/** Host lines no server should accept. */
const badHost = (host: string) => fc.constantFrom('', 'bad host', 'a:b:c', '[::1', 'example.test:99999', `${host}, ${host}`);

/** The path of the document's first server (`/v1`), or empty for the origin's root. */
const serverPathOf = (document: Json) => new URL(document.servers?.[0]?.url ?? '/', 'http://x').pathname.replace(/\/$/, '');

const at = (document: Json, ref: string): Json =>
  ref
    .slice(2)
    .split('/')
    .reduce((node: Json, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);

/** Every operation of `document` as [template, verb, operation]. */
export const operationsOf = (document: Json): [string, string, Json][] =>
  Object.entries<Json>(document.paths ?? {}).flatMap(([template, item]) =>
    METHODS.filter((verb) => item[verb]).map((verb): [string, string, Json] => [template, verb, item[verb]]),
  );

/** An operation's requests: `valid` ones a correct client sends, `careless` ones with anything wrong. */
export interface OperationRequests {
  /** Method and template, e.g. `GET /pets/{petId}`. */
  readonly operation: string;
  readonly valid: fc.Arbitrary<PlannedRequest>;
  readonly careless: fc.Arbitrary<PlannedRequest>;
}

/**
 * Requests for each operation of `document` served at `host`, read off its parameters and schemas.
 * Valid: the declared method, the right credential and Host, values and bodies valid under the
 * schemas, path parameters naming pets 1 to 3. Careless: any of those wrong or not, now and then a
 * value or body the schema refuses, another method, a bad Host, a key missing, wrong or sent twice.
 *
 * @example
 * const [first] = operationRequests(document, { own: KEY, other: ADMIN, tiny: TINY }, '127.0.0.1:8080');
 * fc.sample(first.valid, 3);
 */
export function operationRequests(document: Json, credentials: Credentials, host: string): OperationRequests[] {
  const serverPath = serverPathOf(document);
  return operationsOf(document).map(([template, verb, operation]) => {
    const parameters = [...(document.paths[template].parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => (p.$ref ? at(document, p.$ref) : p));
    const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
    const schema = operation.requestBody?.content?.['application/json']?.schema;
    const build = (careless: boolean) => {
      const choose = <T>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<T>, weight = 4) => (careless ? fc.oneof({ weight, arbitrary: valid }, wrong) : valid);
      const paramValue = (p: Json) => choose(schemaValue(document, p.schema ?? {}, p.name).map(String), badParameter);
      const pathValues = fc.record(
        Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name as string, choose(fc.constantFrom('1', '2', '3'), paramValue(p), 1)])),
      );
      const queryParams = parameters.filter((p) => p.in === 'query').map((p) => paramValue(p).map((value) => `${p.name}=${encodeURIComponent(value)}`));
      const query = fc.array(careless ? fc.oneof(...queryParams, fc.constant('unknown=1')) : fc.oneof(...queryParams, fc.constant('')), { maxLength: 3 });
      const headerParams = fc.array(
        fc.oneof(
          fc.constant(undefined),
          ...parameters.filter((p) => p.in === 'header').map((p) => paramValue(p).map((value) => [p.name, value] as [string, string])),
        ),
        { maxLength: careless ? 2 : 1 },
      );
      const body = schema
        ? choose(
            schemaValue(document, schema).map((value) => JSON.stringify(value)),
            badBody(schemaValue(document, schema)),
          )
        : fc.constant(undefined);
      const contentType = choose(fc.constant('application/json'), fc.constantFrom(undefined, 'text/plain', 'application/json; charset=utf-8'), 6);
      const method = choose(fc.constant(verb.toUpperCase()), fc.constantFrom(...OTHER_METHODS), 3);
      const credential = careless ? credentialLines(credentials, isPublic) : fc.constant<[string, string][]>([['authorization', `Bearer ${credentials.own}`]]);
      return fc
        .record({ method, pathValues, query, headerParams, body, contentType, credential, host: choose(fc.constant(host), badHost(host), 12) })
        .map(({ method, pathValues, query, headerParams, body, contentType, credential, host }): PlannedRequest => {
          const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? '1').replace(/%25/g, '%'));
          const withBody = body !== undefined && !['GET', 'HEAD', 'OPTIONS', 'TRACE', 'DELETE'].includes(method);
          const headers: [string, string][] = [['host', host], ...credential, ...headerParams.filter((h) => h !== undefined)];
          if (withBody && contentType) headers.push(['content-type', contentType]);
          const search = query.filter(Boolean).join('&');
          return {
            method,
            target: `${serverPath}${path}${search ? `?${search}` : ''}`,
            headers,
            ...(withBody && { body }),
            operation: `${verb.toUpperCase()} ${template}`,
          };
        });
    };
    return { operation: `${verb.toUpperCase()} ${template}`, valid: build(false), careless: build(true) };
  });
}

/**
 * Requests for every operation of `document` served at `host`, a third of them valid, the rest
 * careless ({@link operationRequests}), plus requests to paths it does not know.
 *
 * @example
 * fc.sample(requestsFor(document, { own: KEY, other: ADMIN, tiny: TINY }, '127.0.0.1:8080'), 3);
 */
export function requestsFor(document: Json, credentials: Credentials, host: string): fc.Arbitrary<PlannedRequest> {
  const serverPath = serverPathOf(document);
  const unknownPath = fc
    .record({
      method: fc.constantFrom(...OTHER_METHODS),
      path: fc.constantFrom(`${serverPath}/nowhere`, `${serverPath}/pets/1/toys`, `${serverPath}/PETS`, '/elsewhere', `${serverPath}/pets/`),
      credential: credentialLines(credentials, false),
    })
    .map(({ method, path, credential }): PlannedRequest => ({ method, target: path, headers: [['host', host], ...credential], operation: 'unknown path' }));
  const operations = operationRequests(document, credentials, host).map(({ valid, careless }) => fc.oneof(valid, careless, careless));
  return fc.oneof(...operations, unknownPath);
}
