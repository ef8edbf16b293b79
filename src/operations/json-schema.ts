/** Valibot schemas as the JSON Schemas of an OpenAPI document: named ones become components, referenced and never inlined. Both documents (the API's and the admin API's) convert through here. */
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

/** A reference to a component of the document. */
export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** How a document turns schemas into JSON Schema: the schemas it names, and how it treats their actions. */
export type SchemaConversion = Omit<ConversionConfig, 'target' | 'definitions' | 'overrideRef'>;

/**
 * A converter for one document: `schemaOf` gives a schema's JSON Schema with every named schema
 * (a key of `definitions`) as a `#/components/schemas` reference, and `components()` the named ones.
 *
 * @example
 * const { schemaOf, components } = schemaConverter({ Pet: PetSchema }, { typeMode: 'output' });
 */
export function schemaConverter(definitions: Record<string, v.GenericSchema>, conversion: SchemaConversion) {
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    ...conversion,
    definitions,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  };
  return {
    schemaOf(schema: v.GenericSchema): JsonSchema {
      const { $schema: _, $defs: __, ...rest } = toJsonSchema(schema, config);
      return rest;
    },
    components: () => toJsonSchemaDefs(definitions, config),
  };
}
