/** The HAR 1.2 JSON Schema (the har-schema package, which har-validator uses) under ajv: what a HAR the fake backend writes must satisfy. */
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
/** har-schema's schemas by name, each with an `$id` (`har.json#`, `entry.json#`, …) the others refer to; they are draft-06. */
const schemas = require('har-schema') as Record<string, object>;
const draft06 = require('ajv/dist/refs/json-schema-draft-06.json') as object;

// Strict mode off: har-schema uses keywords JSON Schema does not know (`optional`, `min`). Formats
// unchecked: its date-time pattern says what startedDateTime must be, and a test parses the URLs.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addMetaSchema(draft06);
for (const schema of Object.values(schemas)) ajv.addSchema(schema);
const validate = ajv.getSchema('har.json#')!;

/**
 * What in `har` breaks the HAR 1.2 schema, one line each (where and why); none for a valid HAR.
 *
 * @example
 * expect(harProblems(await response.json())).toEqual([]);
 */
export function harProblems(har: unknown): string[] {
  if (validate(har)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
