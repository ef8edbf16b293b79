/** Runs a valibot schema on request input and maps its issues to one 400 with `details`. */
import * as v from 'valibot';
import { ApiError, type ErrorDetail } from '../response/api-error.ts';
import { inputProblem } from '../storage/issues.ts';

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
  const details: ErrorDetail[] = result.issues.map((issue) => {
    const { field, message } = inputProblem(issue);
    return { field: field ?? place, message };
  });
  const summary = details.map((d) => `${d.field} ${d.message}`).join('; ');
  throw new ApiError({ status: 400, code: 'invalid_request', message: `Invalid ${place}: ${summary}.`, details });
}
