/** How a valibot issue is told to a person: the field it is at, and what is wrong there, in the API's words rather than valibot's. */
import * as v from 'valibot';

/** One problem with an input: where (a dotted path, `0.name` for an array's first item) and what. */
export interface InputProblem {
  readonly field: string | undefined;
  readonly message: string;
}

/**
 * The field and message of `issue`. valibot reports a missing key as an object issue at that key,
 * and a value that is no object in its own words ("Invalid type: Expected Object but received 5"):
 * both are said plainly; every other message is the schema's own.
 *
 * @example
 * inputProblem(v.safeParse(NewPetSchema, { name: 'Rex' }).issues![0]); // { field: 'categoryId', message: 'is required' }
 */
export function inputProblem(issue: v.BaseIssue<unknown>): InputProblem {
  const field = v.getDotPath(issue) ?? undefined;
  if (issue.kind !== 'schema' || issue.type !== 'object') return { field, message: issue.message };
  const at = issue.path?.at(-1);
  if (at?.type === 'object' && !Object.hasOwn(at.input as object, at.key as PropertyKey)) return { field, message: 'is required' };
  // Only valibot's default text is replaced: a schema with a message of its own keeps it.
  return { field, message: issue.message.startsWith('Invalid type:') ? 'must be an object' : issue.message };
}

/**
 * Every problem in one line, each `field message`, joined by `; `.
 *
 * @example
 * problemsInOneLine(issues); // 'name must be a string; categoryId is required'
 */
export function problemsInOneLine(issues: readonly v.BaseIssue<unknown>[], fieldless = 'it'): string {
  return issues
    .map(inputProblem)
    .map(({ field, message }) => `${field ?? fieldless} ${message}`)
    .join('; ');
}
