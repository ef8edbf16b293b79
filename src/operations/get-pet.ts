/** GET /pets/{petId}: deprecated; answers until its sunset, then 410 `gone`. */
import { ApiError } from '../response/api-error.ts';
import type { Reply } from '../response/reply.ts';
import { PetPathSchema } from './inputs.ts';
import type { OperationContext, OperationSettings } from './types.ts';
import { apiUrl } from './urls.ts';
import { parseInput } from './validation.ts';

/** Returns one pet, or 404; from the sunset instant on, 410 for every request. */
export async function getPet({ params, settings }: OperationContext): Promise<Reply> {
  if (settings.now() >= settings.getPetSunsetAt.getTime()) {
    const message = `GET /pets/{petId} was removed on ${settings.getPetSunsetAt.toUTCString()}; use GET /pets with the status filter.`;
    throw new ApiError({ status: 410, code: 'gone', message });
  }
  const { petId: id } = parseInput(PetPathSchema, params, 'path');
  const pet = await settings.storage.get(id);
  if (!pet) throw new ApiError({ status: 404, code: 'not_found', message: `Pet ${id} does not exist.` });
  return { status: 200, body: pet };
}

/** RFC 9745 `Deprecation`, RFC 8594 `Sunset` and the successor link, on every response of the route. */
export function deprecationHeaders(settings: OperationSettings): (base: string) => Record<string, string> {
  const deprecation = `@${Math.floor(settings.getPetDeprecatedAt.getTime() / 1000)}`;
  const sunset = settings.getPetSunsetAt.toUTCString();
  return (base) => ({ Deprecation: deprecation, Sunset: sunset, Link: `<${apiUrl(base, '/pets')}>; rel="successor-version"` });
}
