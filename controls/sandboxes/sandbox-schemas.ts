/** What `/__admin/sandboxes` takes and answers, as valibot schemas: they check the body, and the admin document is generated from them. */
import * as v from 'valibot';
import { SeedSchema, seedSchemaFor } from '../pets/seed-schemas.ts';

const NOT_A_NEW_SANDBOX = (issue: v.StrictObjectIssue) =>
  issue.expected === 'never' ? 'is not a field of a new sandbox (only "seed")' : 'must be a JSON object, {} or {"seed": …}';

/** The body of `POST /__admin/sandboxes`, for the admin document: nothing, or what `POST /__admin/seed` takes. */
export const NewSandboxSchema = v.pipe(
  v.strictObject({ seed: v.optional(v.pipe(SeedSchema, v.description('Pets to start with: anything POST /__admin/seed takes.'))) }, NOT_A_NEW_SANDBOX),
  v.title('NewSandbox'),
  v.description('An empty object (or no body) for an empty sandbox, or the pets it starts with.'),
);

/**
 * The schema to check `input` (a `POST /__admin/sandboxes` body) with: NewSandboxSchema with the
 * seed's own form (seedSchemaFor), so a bad pet is named `seed.1.name`, not "neither form fits".
 *
 * @example
 * const { seed } = parseInput(newSandboxSchemaFor(body), body, 'body');
 */
export function newSandboxSchemaFor(input: unknown) {
  const seed = typeof input === 'object' && input !== null ? (input as { seed?: unknown }).seed : undefined;
  // valibot's object schemas take an array as an object with no fields: `[]` would open a sandbox.
  const fields = v.strictObject({ seed: v.optional(seedSchemaFor(seed)) }, NOT_A_NEW_SANDBOX);
  return v.pipe(
    v.custom<unknown>((body) => !Array.isArray(body), 'must be a JSON object, {} or {"seed": …}'),
    fields,
  );
}

const KEY_FORMAT = 'psbx_<id>_<plan>_<32 random characters>';
const SandboxKeysSchema = v.pipe(
  v.strictObject({
    free: v.pipe(v.string(), v.description(`The free plan\u2019s key, ${KEY_FORMAT}.`)),
    pro: v.pipe(v.string(), v.description('The pro plan\u2019s key.')),
    business: v.pipe(v.string(), v.description('The business plan\u2019s key.')),
  }),
  v.title('SandboxKeys'),
  v.description('A key per plan: a request carrying one of them (Authorization: Bearer <key>) lives in the sandbox.'),
);

const ID = v.pipe(v.string(), v.regex(/^[0-9a-z]{12}$/), v.description('The sandbox\u2019s id: 12 lower-case letters and digits.'));

const SELECTOR = v.pipe(
  v.string(),
  v.regex(/^pssel_[A-Za-z0-9_-]{32}$/),
  v.description(
    'A secret that sends a request to the sandbox, with a key of the main world or one of its own: as `Petstore-Sandbox: <selector>`, or as ' +
      'the `petstore.sandbox` member of a W3C `baggage` header (which OpenTelemetry forwards). `pssel_` and 32 random base64url characters.',
  ),
);

/** The answer of `POST /__admin/sandboxes`. */
export const OpenedSandboxSchema = v.pipe(v.strictObject({ id: ID, keys: SandboxKeysSchema, selector: SELECTOR }), v.title('OpenedSandbox'));

const REAL_TIME = v.pipe(v.string(), v.description('Real time (not a world\u2019s clock), as an ISO 8601 date.'));
const COUNT = (what: string) => v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.description(what));

/** An item of `GET /__admin/sandboxes`, and the answer of `GET /__admin/sandboxes/{id}`. */
export const SandboxSchema = v.pipe(
  v.strictObject({
    id: ID,
    keys: SandboxKeysSchema,
    selector: SELECTOR,
    createdAt: REAL_TIME,
    lastUsedAt: REAL_TIME,
    pets: v.optional(COUNT('The pets it holds now; absent on Workers, where each sandbox\u2019s world is a Durable Object of its own.')),
    requests: v.optional(COUNT('The exchanges its journal keeps now (GET /__admin/sandboxes/{id}/requests lists them); absent on Workers, as pets is.')),
  }),
  v.title('Sandbox'),
  v.description('An open sandbox; it is deleted once unused for the idle minutes (--sandbox-idle).'),
);

/** The 409 of `POST /__admin/sandboxes` when the most sandboxes are open. */
export const TooManySandboxesSchema = v.pipe(
  v.strictObject({
    code: v.literal('too_many_sandboxes'),
    message: v.pipe(v.string(), v.description('The cap, the flag or option that sets it, and how to get past it.')),
    status: v.literal(409),
  }),
  v.title('TooManySandboxes'),
);
