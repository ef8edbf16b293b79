/** The parts the admin API's OpenAPI document is built of: its schemas, its error responses, and an operation, a GET with its HEAD, an OPTIONS. */
import type { JsonSchema } from '@valibot/to-json-schema';
import {
  ErrorBodySchema,
  jsonContent,
  NewPetSchema,
  type OpenApiObject,
  PetSchema,
  PetStatusSchema,
  ref,
  schemaConverter,
  withoutBodies,
} from '../../src/index.ts';
import { ClockChangeSchema, ClockTimeSchema } from '../clock/clock-schemas.ts';
import { documentedJsonSchema } from '../documented-check.ts';
import { FaultRuleSchema, InjectedFaultSchema, PendingFaultSchema } from '../faults/fault-schemas.ts';
import { RecordedExchangeSchema, RequestCountSchema, VerificationFailedSchema, VerificationSchema } from '../journal/journal-schemas.ts';
import { NewSandboxSchema, OpenedSandboxSchema, SandboxSchema, TooManySandboxesSchema } from '../sandboxes/sandbox-schemas.ts';

const DEFINITIONS = {
  PetStatus: PetStatusSchema,
  NewPet: NewPetSchema,
  Pet: PetSchema,
  Error: ErrorBodySchema,
  FaultRule: FaultRuleSchema,
  PendingFault: PendingFaultSchema,
  InjectedFault: InjectedFaultSchema,
  ClockChange: ClockChangeSchema,
  ClockTime: ClockTimeSchema,
  RecordedExchange: RecordedExchangeSchema,
  RequestCount: RequestCountSchema,
  Verification: VerificationSchema,
  VerificationFailed: VerificationFailedSchema,
  NewSandbox: NewSandboxSchema,
  OpenedSandbox: OpenedSandboxSchema,
  Sandbox: SandboxSchema,
  TooManySandboxes: TooManySandboxesSchema,
};

/** A schema of the admin API in JSON Schema, and every named one as `components.schemas`. */
export const { schemaOf: jsonSchemaOf, components } = schemaConverter(DEFINITIONS, {
  // A check is code, not schema: one that says itself in JSON Schema (a rule across fields) adds
  // that to the object's allOf; the others (a well-formed name, a real calendar date) are left out.
  overrideAction: ({ valibotAction, jsonSchema }) => {
    if (valibotAction.type !== 'check') return undefined;
    const said = documentedJsonSchema(valibotAction);
    if (!said) return jsonSchema;
    return { ...jsonSchema, allOf: [...((jsonSchema.allOf as JsonSchema[] | undefined) ?? []), said as JsonSchema] };
  },
});

/** Error responses by status: the name of their component and what they mean here. `4XX` is OpenAPI's range for every client error not listed. */
const ERROR_RESPONSES = {
  400: [
    'BadRequest',
    'A body that is not JSON, or that the operation cannot use (`invalid_request`); `details` lists each problem. Also a request refused before ' +
      'it reaches the admin API (a malformed Host or target, a header that may appear once sent twice, unparseable HTTP).',
  ],
  401: ['Unauthorized', 'No admin token, or a wrong one (`unauthorized`).'],
  413: ['PayloadTooLarge', 'The body is larger than the configured limit (`payload_too_large`).'],
  415: ['UnsupportedMediaType', 'The body is not `application/json` (`unsupported_media_type`).'],
  429: [
    'TooManyRequests',
    'This address sent more wrong admin tokens within one minute than the ban threshold allows (10 unless configured), and is banned ' +
      '(`key_banned`) for the ban duration (15 minutes unless configured), the right token too; `Retry-After` says when the ban ends.',
  ],
  '4XX': [
    'OtherClientError',
    'Another client error, as an Error body: 405 `method_not_allowed` with `Allow` to a method the path does not list; what node:http ' +
      'refuses before the admin API reads the request (408 `request_timeout`, 417 `expectation_failed`, 431 `headers_too_large`).',
  ],
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

/**
 * The 507 of a seed past the bound on pets in all worlds (the admin option `pets`): the operations
 * that store pets list it with their own answers.
 *
 * @example
 * operation({ …, others: { 507: TOO_MANY_PETS } });
 */
export const TOO_MANY_PETS: OpenApiObject = {
  description:
    'The pets would pass the bound on pets in all worlds together, the main one and every sandbox (`insufficient_storage`; the ' +
    'command’s `--pets`, the admin option `pets`): none is stored. Deleting a sandbox or a reset gives its pets back.',
  content: jsonContent(ref('schemas', 'Error')),
};

/** Headers an error response carries besides the JSON type: the 401's challenge, a 405's methods. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, OpenApiObject>> = {
  401: { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') },
  429: { 'Retry-After': ref('headers', 'Retry-After') },
  '4XX': { Allow: ref('headers', 'Allow.optional') },
};

export const RESPONSE_COMPONENTS: Record<string, OpenApiObject> = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([status, [name, description]]) => {
    const headers = ERROR_HEADERS[(/^[0-9]+$/.test(status) ? Number(status) : status) as ErrorStatus];
    return [name, { description, ...(headers ? { headers } : {}), content: jsonContent(ref('schemas', 'Error')) }];
  }),
);

/** What an operation answers besides success: always 400 (the edge's), 401, the ban's 429 and the other 4xx; where it reads a body, that body's 413 and 415. */
const errorResponses = (readsBody: boolean) =>
  Object.fromEntries(
    ([400, 401, ...(readsBody ? [413, 415] : []), 429, '4XX'] as ErrorStatus[]).map((status) => [status, ref('responses', ERROR_RESPONSES[status][0])]),
  );

export interface OperationParts {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  /** The body it reads, if any. */
  readonly body?: { readonly schema: unknown; readonly description: string };
  /** Its success: status, description and the schema of its JSON body (none for 204). */
  readonly success: readonly [status: number, description: string, schema?: unknown];
  /** The query parameters it reads, if any. */
  readonly parameters?: readonly OpenApiObject[];
  /** Answers of its own besides success and the errors every operation has (verify's 409). */
  readonly others?: OpenApiObject;
}

export function operation({ operationId, tag, summary, description: about, body, parameters, others, success }: OperationParts): OpenApiObject {
  const [status, description, schema] = success;
  return {
    operationId,
    tags: [tag],
    summary,
    description: about,
    ...(parameters ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, description: body.description, content: jsonContent(body.schema) } } : {}),
    responses: {
      [status]: schema === undefined ? { description } : { description, content: jsonContent(schema) },
      ...others,
      ...errorResponses(body !== undefined),
    },
  };
}

/** A GET and its HEAD: the same answers without bodies. */
export function getAndHead(parts: OperationParts): OpenApiObject {
  const get = operation(parts);
  const head = {
    ...get,
    operationId: `${parts.operationId}Head`,
    summary: `Headers only: ${parts.summary}`,
    description: 'Answers exactly as GET does, the same status and headers, with no body.',
    responses: withoutBodies(get.responses as OpenApiObject, RESPONSE_COMPONENTS),
  };
  return { get, head };
}

/** The OPTIONS of an admin path: 204 with `Allow`, behind the admin token like every admin call (a CORS preflight, which carries none, gets a 401). */
export function options(operationId: string, tag: string): OpenApiObject {
  return {
    operationId,
    tags: [tag],
    summary: 'The methods this path answers, in `Allow`.',
    description:
      'Needs the admin token like every admin call, so a CORS preflight gets a 401. Any method not in `Allow` answers 405 `method_not_allowed` with the same `Allow`.',
    responses: { 204: { description: 'The methods, in `Allow`.', headers: { Allow: ref('headers', 'Allow') } }, ...errorResponses(false) },
  };
}

export const listOf = (name: string) => ({ type: 'array', items: ref('schemas', name) });
