/** POST /pets: validates a NewPet and stores it under a fresh id. */
import { jsonResponse } from '../errors.ts';
import { readJsonObject } from '../pipeline/body.ts';
import { NewPetSchema } from '../schemas.ts';
import { parseInput } from '../validation.ts';
import type { OperationContext } from './types.ts';

/** Creates a pet; answers 201 with the stored pet and its `Location`. */
export async function createPet({ request, url, options }: OperationContext): Promise<Response> {
  const body = await readJsonObject(request, options.maxBodyBytes);
  const newPet = parseInput(NewPetSchema, body, 'body');
  const status = newPet.status ?? options.defaultStatus;
  const pet = await options.storage.create(status === undefined ? newPet : { ...newPet, status });
  return jsonResponse(pet, 201, { Location: `${url.pathname}/${pet.id}` });
}
