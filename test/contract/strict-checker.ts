/** Judges an answer by an OpenAPI document alone: every status, header, media type and body the server sends must be declared there. */
import { STATUS_CODES } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked by any path the spec allows
type Json = Record<string, any>;

/** One answer as a client saw it, `target` being the path and query from the origin (`/v1/pets?limit=2`). */
export interface SeenAnswer {
  readonly method: string;
  readonly target: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/**
 * Headers that frame the message rather than say anything about the API: HTTP's own, which no
 * OpenAPI document declares (the spec ignores a declared Content-Type; its media type is the content key).
 */
const FRAMING_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
/** `Not Found` → `NotFound`: how both documents name a shared response. */
const componentName = (status: number) => (STATUS_CODES[status] ?? '').replace(/[^A-Za-z]/g, '');

/**
 * A checker for `document`: given an answer, the lines saying where it breaks the document (none
 * when it conforms). Stricter than the suites' recorder ({@link ./checker.ts}), which serves
 * documents as they are: here HEAD is only what a `head` operation declares, a method no operation
 * declares is answered only with an error some operation of that path declares (a 405 included),
 * any header beyond HTTP's framing must be declared, and an unknown path's answer must match a
 * declaration of its status somewhere in the document.
 *
 * @example
 * const check = createStrictChecker(await (await fetch(`${origin}/v1/openapi.json`)).json());
 * expect(check({ method: 'GET', target: '/v1/pets', status: 200, headers: response.headers, body: await response.text() })).toEqual([]);
 */
export function createStrictChecker(document: Json): (answer: SeenAnswer) => string[] {
  const id = `https://documents.test/${encodeURIComponent(document.info?.title ?? 'document')}.json`;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: id });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.getSchema(`${id}#${pointer}`);
      if (!validate) throw new Error(`no schema at ${pointer}`);
      compiled.set(pointer, validate);
    }
    return validate;
  };
  const at = (pointer: string): Json =>
    pointer
      .split('/')
      .slice(1)
      .reduce((node: Json, key) => node?.[unescapePointer(key)], document);
  /** Follows `$ref`s: the object and the pointer it lives at. */
  const resolve = (pointer: string): [Json, string] => {
    let node = at(pointer);
    while (typeof node?.$ref === 'string') {
      pointer = node.$ref.slice(1);
      node = at(pointer);
    }
    return [node, pointer];
  };

  const serverPath = new URL(document.servers?.[0]?.url ?? '/', 'http://x').pathname.replace(/\/$/, '');
  const templates = Object.keys(document.paths ?? {}).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const templateOf = (pathname: string) => {
    if (serverPath && pathname !== serverPath && !pathname.startsWith(`${serverPath}/`)) return undefined;
    const relative = pathname.slice(serverPath.length) || '/';
    return templates.find(({ pattern }) => pattern.test(relative))?.template;
  };
  const operationsOf = (template: string) =>
    METHODS.filter((verb) => document.paths[template][verb]).map((verb) => `/paths/${escapePointer(template)}/${verb}`);
  const allOperations = () => Object.keys(document.paths ?? {}).flatMap(operationsOf);
  /** The declaration of `status` in an operation: exact, then its class (`5XX`), then `default`. */
  const declarationIn = (operation: string, status: number) => {
    const responses = at(`${operation}/responses`) ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k]);
    return key ? `${operation}/responses/${key}` : undefined;
  };

  /** Where `answer` differs from the response declared at `pointer`. */
  function differences(answer: SeenAnswer, pointer: string, where: string): string[] {
    const [response, resolved] = resolve(pointer);
    const problems: string[] = [];
    const declaredNames = new Set<string>();
    const missing: string[] = [];
    for (const name of Object.keys(response.headers ?? {})) {
      declaredNames.add(name.toLowerCase());
      if (name.toLowerCase() === 'content-type') continue;
      const [header, headerPointer] = resolve(`${resolved}/headers/${escapePointer(name)}`);
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required) missing.push(name);
        continue;
      }
      const schema = header.schema ?? {};
      const candidate = ['integer', 'number'].includes(schema.type) && /^-?[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : value;
      const validate = validatorAt(`${headerPointer}/schema`);
      if (!validate(candidate)) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`);
    }
    if (missing.length > 0) problems.push(`${where}: missing required header${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    for (const name of answer.headers.keys()) {
      if (!FRAMING_HEADERS.has(name) && !declaredNames.has(name)) problems.push(`${where}: header ${name} is not declared`);
    }

    const content: Json = response.content ?? {};
    const mediaTypes = Object.keys(content);
    const sent = answer.headers.get('content-type');
    if (answer.method === 'HEAD') {
      if (answer.body !== '') problems.push(`${where}: a body in answer to HEAD`);
      return problems;
    }
    if (mediaTypes.length === 0) {
      if (answer.body !== '' || sent) problems.push(`${where}: no content declared, but sent ${sent ?? 'no media type'}: ${answer.body.slice(0, 80)}`);
      return problems;
    }
    const essence = sent?.split(';')[0]?.trim().toLowerCase();
    const mediaType = mediaTypes.find((type) => type.toLowerCase() === essence);
    if (!mediaType) return [...problems, `${where}: media type ${sent} is not declared (${mediaTypes.join(', ')})`];
    if (!mediaType.endsWith('json')) return problems;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      return [...problems, `${where}: body is not JSON: ${answer.body.slice(0, 80)}`];
    }
    const validate = validatorAt(`${resolved}/content/${escapePointer(mediaType)}/schema`);
    if (!validate(parsed)) problems.push(`${where}: body ${ajv.errorsText(validate.errors)}: ${answer.body.slice(0, 200)}`);
    const errorStatus = (parsed as Json | null)?.status;
    if (answer.status >= 400 && typeof parsed === 'object' && parsed !== null && 'code' in parsed && errorStatus !== answer.status) {
      problems.push(`${where}: the Error body says status ${errorStatus}`);
    }
    return problems;
  }

  /** The problems with the best-matching candidate declaration: none if any candidate fits. */
  function bestOf(answer: SeenAnswer, candidates: string[], where: string): string[] {
    let fewest: string[] | undefined;
    for (const candidate of candidates) {
      const problems = differences(answer, candidate, where);
      if (problems.length === 0) return [];
      if (!fewest || problems.length < fewest.length) fewest = problems;
    }
    return fewest ?? [];
  }

  return function check(answer: SeenAnswer): string[] {
    const pathname = answer.target.split('?')[0]!;
    const where = `${answer.method} ${answer.target} → ${answer.status}`;
    const template = templateOf(pathname);
    const verb = answer.method.toLowerCase();
    if (template && document.paths[template][verb]) {
      const operation = `/paths/${escapePointer(template)}/${verb}`;
      const declared = declarationIn(operation, answer.status);
      if (!declared) return [`${where}: status ${answer.status} is not declared for ${answer.method} ${template}`];
      return differences(answer, declared, where);
    }
    if (template) {
      if (answer.status < 400) return [`${where}: ${answer.method} ${template} is answered but no operation describes it`];
      const candidates = operationsOf(template).flatMap((operation) => declarationIn(operation, answer.status) ?? []);
      if (candidates.length === 0) return [`${where}: ${answer.method} is no operation of ${template}, and none of its operations declares ${answer.status}`];
      return bestOf(answer, candidates, `${where} (${answer.method} is no operation of ${template})`);
    }
    // A path the document does not know: only a shared declaration of the status can describe it.
    if (answer.status < 400) return [`${where}: the path is in no operation of the document`];
    const shared = document.components?.responses?.[componentName(answer.status)] ? [`/components/responses/${componentName(answer.status)}`] : [];
    const candidates = [...shared, ...allOperations().flatMap((operation) => declarationIn(operation, answer.status) ?? [])];
    if (candidates.length === 0) return [`${where}: the path is unknown, and the document declares ${answer.status} nowhere`];
    return bestOf(answer, candidates, `${where} (unknown path)`);
  };
}
