/** Runs a valibot schema on request input and maps its issues to one 400 with `details`. */
import * as v from 'valibot';
import { ApiError, type ErrorDetail } from '../response/api-error.ts';

/** Where the input came from, used to name fields in `details` and the message. */
type InputPlace = 'body' | 'query' | 'path' | 'header';

/**
 * The schema's output for `input`, or a 400 `invalid_request` listing every problem.
 *
 * @example
 * const pet = parseInput(NewPetSchema, body, 'body'); // throws a 400 ApiError when invalid
 */
export function parseInput<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown, place: InputPlace): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const details = result.issues.map((issue) => toDetail(issue, place));
  const summary = details.map((d) => `${d.field} ${d.message}`).join('; ');
  throw new ApiError({ status: 400, code: 'invalid_request', message: `Invalid ${place}: ${summary}.`, details });
}

function toDetail(issue: v.BaseIssue<unknown>, place: InputPlace): ErrorDetail {
  const field = v.getDotPath(issue) ?? place;
  // valibot reports a missing key as an object-level issue at that key's path.
  const missing = issue.kind === 'schema' && issue.type === 'object' && issue.path !== undefined;
  return { field, message: missing ? 'is required' : issue.message };
}
