/** Checks real responses against the OpenAPI document the API serves: status, headers and body. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createPetStore } from '../../compose/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked by any path the spec allows
type Json = Record<string, any>;

/** One response as a client saw it. */
export interface Exchange {
  readonly method: string;
  /** Path and query under the base path, e.g. `/pets?limit=2`. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

const DOCUMENT_ID = 'https://petstore.test/openapi.json';
const pointer = (...segments: (string | number)[]) => segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The problems of `exchange` against `document`, as readable lines; empty when it conforms. */
export function createContractChecker(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const schemaAt = (path: string) => {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#/${path}`);
    if (!validate) throw new Error(`no schema at ${path}`);
    return validate;
  };
  const resolve = (object: Json): [Json, string] => {
    const ref: string | undefined = object.$ref;
    if (!ref) return [object, ''];
    const path = ref.slice(2);
    return [path.split('/').reduce((node: Json, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], document), path];
  };

  const headerValidators = new Map<Json, ReturnType<typeof ajv.compile>>();
  const headerValidator = (schema: Json) => {
    let validate = headerValidators.get(schema);
    if (!validate) headerValidators.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };

  /** The documented path template matching `path`, e.g. `/pets/{petId}` for `/pets/7`. */
  const templateOf = (path: string) => Object.keys(document.paths).find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));

  return function check({ method, path, status, headers, body }: Exchange): string[] {
    const problems: string[] = [];
    const where = `${method} ${path} → ${status}`;
    const template = templateOf(path.split('?')[0]!);
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    const operation = template ? document.paths[template][verb] : undefined;
    let responsePath: string;
    if (operation) {
      if (!operation.responses[status]) return [`${where}: status ${status} is not documented`];
      responsePath = pointer('paths', template!, verb, 'responses', status);
    } else if (status === 204 && method === 'OPTIONS') {
      return headers.get('allow') || headers.has('access-control-allow-methods') ? [] : [`${where}: no Allow`];
    } else {
      // Unknown paths (404) and wrong methods (405) belong to no operation: the shared definitions apply.
      const name = ({ 401: 'Unauthorized', 404: 'NotFound', 405: 'MethodNotAllowed', 429: 'TooManyRequests' } as Json)[status];
      // Without a shared definition, the status class's range (4XX) that an operation of the path (any path, for an unknown one) declares.
      const range = `${String(status)[0]}XX`;
      const ranged = (template ? [template] : Object.keys(document.paths))
        .flatMap((path) => Object.keys(document.paths[path]).map((verb) => [path, verb] as const))
        .find(([path, verb]) => document.paths[path][verb]?.responses?.[range]);
      if (name && document.components.responses?.[name]) responsePath = pointer('components', 'responses', name);
      else if (ranged) responsePath = pointer('paths', ...ranged, 'responses', range);
      else return [`${where}: undocumented response to an undocumented operation`];
    }
    const [response, resolvedPath] = resolve(responsePath.split('/').reduce((node: Json, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], document));
    if (resolvedPath) responsePath = resolvedPath;

    for (const [name, declared] of Object.entries<Json>(response.headers ?? {})) {
      const [headerObject] = resolve(declared);
      // A 404/405 outside any operation has no deprecation headers: those belong to GET /pets/{petId} only.
      if (!operation && ['Deprecation', 'Sunset', 'Link'].includes(name)) continue;
      const value = headers.get(name);
      if (value === null) {
        if (headerObject.required) problems.push(`${where}: missing required header ${name}`);
        continue;
      }
      const schema = headerObject.schema ?? {};
      const candidate = schema.type === 'integer' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
      const validate = headerValidator(schema);
      if (!validate(candidate)) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`);
    }

    const content = response.content?.['application/json'];
    // A declared media type other than JSON (the admin dashboard's page, script, styles and event stream): sent as declared, its text not judged here.
    const mediaType = headers.get('content-type')?.split(';')[0]?.trim();
    if (method !== 'HEAD' && !content && mediaType && response.content?.[mediaType]) return problems;
    if (method === 'HEAD' || !content) {
      if (body !== '') problems.push(`${where}: expected no body`);
      return problems;
    }
    if (headers.get('content-type') !== 'application/json') problems.push(`${where}: content-type ${headers.get('content-type')}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return [...problems, `${where}: body is not JSON: ${body.slice(0, 80)}`];
    }
    const validate = schemaAt(`${responsePath}/content/application~1json/schema`);
    if (!validate(parsed)) problems.push(`${where}: body ${ajv.errorsText(validate.errors)}: ${body.slice(0, 200)}`);
    if (status >= 400 && (parsed as Json).status !== status) problems.push(`${where}: Error.status ${(parsed as Json).status}`);
    return problems;
  };
}

const checkers = new Map<string, ReturnType<typeof createContractChecker>>();

/** A checker for the document a store with this base path serves (built in-process, uncounted). */
export async function contractCheckerFor(basePath: string) {
  let checker = checkers.get(basePath);
  if (!checker) {
    const response = await createPetStore({ basePath }).fetch(`http://localhost${basePath}/openapi.json`);
    checker = createContractChecker(await response.json());
    checkers.set(basePath, checker);
  }
  return checker;
}
