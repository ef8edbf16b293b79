/** GET /pets/{petId}: deprecated; answers until its sunset, then 410 `gone`. */
import { ApiError, type Reply } from '../errors.ts';
import type { ResolvedOptions } from '../options.ts';
import { PetPathSchema } from '../schemas.ts';
import { parseInput } from '../validation.ts';
import type { OperationContext } from './types.ts';

/** Returns one pet, or 404; from the sunset instant on, 410 for every request. */
export async function getPet({ params, options }: OperationContext): Promise<Reply> {
  if (options.now() >= options.getPetSunsetAt.getTime()) {
    throw new ApiError(
      410,
      'gone',
      `GET /pets/{petId} was removed on ${options.getPetSunsetAt.toUTCString()}; use GET /pets with the status filter.`,
    );
  }
  const { petId: id } = parseInput(PetPathSchema, params, 'path');
  const pet = await options.storage.get(id);
  if (!pet) throw new ApiError(404, 'not_found', `Pet ${id} does not exist.`);
  return { status: 200, body: pet };
}

/** RFC 9745 `Deprecation`, RFC 8594 `Sunset` and the successor link, on every response of the route. */
export function deprecationHeaders(options: ResolvedOptions): (base: string) => Record<string, string> {
  const deprecation = `@${Math.floor(options.getPetDeprecatedAt.getTime() / 1000)}`;
  const sunset = options.getPetSunsetAt.toUTCString();
  return (base) => ({ Deprecation: deprecation, Sunset: sunset, Link: `<${base}/pets>; rel="successor-version"` });
}
