/** The JSON Schemas of the API's OpenAPI document, converted from the valibot schemas that validate requests: at run time in the library, at build time for the service worker. */
import type * as v from 'valibot';
import { ErrorBodySchema } from '../response/api-error.ts';
import { NewPetSchema, PetSchema, PetStatusSchema } from '../storage/pet.ts';
import { CreateHeadersSchema, DEFAULT_LIMIT, ListQuerySchema, PetPathSchema } from './inputs.ts';
import { schemaConverter } from './json-schema.ts';
import type { OpenApiObject } from './openapi-parts.ts';

/**
 * What the document takes from the valibot schemas: the named ones as `components.schemas`, and
 * each operation's parameters. Plain JSON, so the service worker's build can write it out as a
 * literal (build/prebuilt-openapi.ts) and leave the converter out of the worker.
 *
 * @example
 * const { components, listQuery } = openApiSchemas();
 */
export interface OpenApiSchemas {
  /** `components.schemas` before the body rules are added: `PetStatus`, `NewPet`, `Pet`, `Error`. */
  readonly components: Record<string, unknown>;
  /** The query parameters of `GET /pets`. */
  readonly listQuery: readonly OpenApiObject[];
  /** The header parameters of `POST /pets`. */
  readonly createHeaders: readonly OpenApiObject[];
  /** The path parameters of `GET /pets/{petId}`. */
  readonly petPath: readonly OpenApiObject[];
}

const DEFINITIONS = { PetStatus: PetStatusSchema, NewPet: NewPetSchema, Pet: PetSchema, Error: ErrorBodySchema };

/**
 * The schemas converted afresh: each call makes new objects, so a caller may change its own.
 *
 * @example
 * openApiSchemas().components.Pet; // { type: 'object', properties: { id: …, name: …, … }, … }
 */
export function openApiSchemas(): OpenApiSchemas {
  const { schemaOf, components } = schemaConverter(DEFINITIONS, {
    // Query and path parameters arrive as strings; the document describes the values they carry.
    typeMode: 'output',
    // A check is code, not schema (a cursor naming a pet, a name of well-formed Unicode): its pattern
    // or type says what JSON Schema can, and a description the rest.
    ignoreActions: ['check'],
  });
  const parametersOf = (schema: v.ObjectSchema<v.ObjectEntries, undefined>, place: 'query' | 'path' | 'header'): OpenApiObject[] =>
    Object.entries(schema.entries).map(([name, entry]) => {
      const parameter: OpenApiObject = { name, in: place, required: entry.type !== 'optional', schema: schemaOf(entry) };
      const description = (parameter.schema as OpenApiObject).description;
      if (description) parameter.description = description;
      if (name === 'limit') (parameter.schema as OpenApiObject).default = DEFAULT_LIMIT;
      return parameter;
    });
  return {
    components: components(),
    listQuery: parametersOf(ListQuerySchema, 'query'),
    createHeaders: parametersOf(CreateHeadersSchema, 'header'),
    petPath: parametersOf(PetPathSchema, 'path'),
  };
}
