/** A valibot check that carries the JSON Schema saying the same thing, so a rule across fields is written once and still reaches the admin document. */
import type * as v from 'valibot';

/** JSON Schema keywords. */
type Keywords = Record<string, unknown>;

/**
 * `check` with the JSON Schema that says the same thing, so a rule across fields is written once
 * and still reaches the document (admin-openapi.ts adds `jsonSchema` to the object's `allOf`).
 *
 * @example
 * documented(v.check((rule) => rule.status === undefined || rule.network === undefined), { anyOf: [{ properties: { status: false } }, { properties: { network: false } }] });
 */
export function documented<TAction extends v.GenericValidation>(check: TAction, jsonSchema: Keywords): TAction & { readonly jsonSchema: Keywords } {
  return Object.assign(check, { jsonSchema });
}

/**
 * The JSON Schema a check carries for the document, if it was {@link documented}.
 *
 * @example
 * documentedJsonSchema(action); // { oneOf: [...] } or undefined
 */
export function documentedJsonSchema(action: object): Keywords | undefined {
  return (action as { jsonSchema?: Keywords }).jsonSchema;
}
