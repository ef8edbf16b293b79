/** Pieces both OpenAPI documents (the API's and the admin API's) are built from: headers, JSON content, the reserved keys, and HEAD as GET without bodies. */
import { MAX_JSON_DEPTH, RESERVED_BODY_KEYS } from './body.ts';
import { ref } from './json-schema.ts';

/**
 * A JSON object of an OpenAPI document.
 *
 * @example
 * const info: OpenApiObject = { title: 'Pet Store', version: '1.0.0' };
 */
export type OpenApiObject = Record<string, unknown>;

/**
 * Who answers for the documents: where this package takes issues.
 *
 * @example
 * const info = { title: 'Pet Store', version: '1.0.0', contact: OPENAPI_CONTACT };
 */
export const OPENAPI_CONTACT = { name: 'petstore-service', url: 'https://github.com/petstore-service/petstore-service/issues' } as const;

/**
 * A header object: `required` only when every response listing it carries it.
 *
 * @example
 * headerObject('Methods the path supports.', pattern('^[A-Z]+(, [A-Z]+)*$'));
 */
export function headerObject(description: string, schema: OpenApiObject = { type: 'string' }, required = true): OpenApiObject {
  return { description, required, schema };
}

/**
 * A string schema with a pattern.
 *
 * @example
 * pattern('^@[0-9]+$'); // { type: 'string', pattern: '^@[0-9]+$' }
 */
export const pattern = (regex: string): OpenApiObject => ({ type: 'string', pattern: regex });

/**
 * The `content` of a JSON body with this schema.
 *
 * @example
 * jsonContent(ref('schemas', 'Pet')); // { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } }
 */
export const jsonContent = (schema: unknown): OpenApiObject => ({ 'application/json': { schema } });

/**
 * The named schemas of a document with the body rules JSON Schema can say added to `NewPet`: no
 * reserved key at any depth (a `not` of {@link RESERVED_KEY_SCHEMA}, which generated clients ignore,
 * where `additionalProperties` would give `NewPet` an index signature its fields break).
 *
 * @example
 * const schemas = withBodyRules(components()); // schemas.NewPet.not = { $ref: '#/components/schemas/HasReservedKey' }
 */
export function withBodyRules(schemas: Record<string, unknown>): Record<string, unknown> {
  const newPet = schemas.NewPet as OpenApiObject;
  return {
    ...schemas,
    NewPet: {
      ...newPet,
      description:
        'A pet as a client sends it. Unknown fields are ignored and never stored, but anywhere in the body the keys ' +
        `${RESERVED_BODY_KEYS.map((key) => `\`${key}\``).join(', ')} are refused (400), as is nesting arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
      not: ref('schemas', 'HasReservedKey'),
    },
    HasReservedKey: RESERVED_KEY_SCHEMA,
  };
}

/** JSON with a reserved key somewhere: an object using one, an object with a value that has one, or an array with an item that has one. */
const RESERVED_KEY_SCHEMA = {
  description: `A JSON value with an object key ${RESERVED_BODY_KEYS.map((key) => `\`${key}\``).join(', or ')} at any depth: what a request body must not be.`,
  anyOf: [
    { type: 'object', not: { propertyNames: { not: { enum: [...RESERVED_BODY_KEYS] } } } },
    { type: 'object', not: { additionalProperties: { not: ref('schemas', 'HasReservedKey') } } },
    // `items: {}` says nothing (2020-12 needs no items); Spectral's array-items rule, from OpenAPI 3.0, asks for it beside every array type.
    { type: 'array', items: {}, contains: ref('schemas', 'HasReservedKey') },
  ],
};

/**
 * The responses of a HEAD: each of `responses` without its body, its headers kept. A `$ref` is
 * looked up in `components` (the document's `components.responses`) and copied, since a shared
 * response carries the body HEAD does not.
 *
 * @example
 * withoutBodies({ 200: { description: 'A pet.', headers, content } }, {}); // { 200: { description: 'A pet.', headers } }
 */
export function withoutBodies(responses: OpenApiObject, components: Record<string, OpenApiObject>): OpenApiObject {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const target = (response as { $ref?: string }).$ref;
      const resolved = target === undefined ? (response as OpenApiObject) : components[target.slice(target.lastIndexOf('/') + 1)];
      if (resolved === undefined) throw new Error(`no response component for ${target}`);
      const { content: _, ...rest } = resolved;
      return [status, rest];
    }),
  );
}
