/** POST /pets: validates a NewPet and stores it under a fresh id, at most once per Idempotency-Key. */
import { ApiError, type Reply } from '../errors.ts';
import { readJsonObject } from './body.ts';
import { CreateHeadersSchema, IDEMPOTENCY_TTL_MS, NewPetSchema, type NewPet } from '../schemas.ts';
import { parseInput } from '../validation.ts';
import type { OperationContext } from './types.ts';

/** Creates a pet; answers 201 with the stored pet and its `Location`. */
export async function createPet({ request, body: hostBody, base, options, caller }: OperationContext): Promise<Reply> {
  const headers = parseInput(CreateHeadersSchema, { 'Idempotency-Key': request.headers.get('idempotency-key') ?? undefined }, 'header');
  const body = await readJsonObject(request, options.maxBodyBytes, hostBody);
  const parsed = parseInput(NewPetSchema, body, 'body');
  const status = parsed.status ?? options.defaultStatus;
  const newPet: NewPet = status === undefined ? parsed : { ...parsed, status };
  const key = headers['Idempotency-Key'];
  if (key === undefined) {
    const pet = await options.storage.create(newPet);
    return { status: 201, body: pet, headers: { Location: `${base}/pets/${pet.id}` } };
  }

  const now = options.now();
  // Keys belong to the API key that sent them, so two clients cannot collide or peek.
  const scopedKey = `${caller?.keyId ?? 'anonymous'}:${key}`;
  const fingerprint = fingerprintOf(newPet);
  const { record, created } = await options.storage.createOnce(scopedKey, fingerprint, newPet, now + IDEMPOTENCY_TTL_MS, now);
  if (record.fingerprint !== fingerprint) {
    throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different body in the last 24 hours.');
  }
  const responseHeaders: Record<string, string> = { Location: `${base}/pets/${record.pet.id}` };
  if (!created) responseHeaders['Idempotent-Replayed'] = 'true';
  return { status: 201, body: record.pet, headers: responseHeaders };
}

/** Identifies what a create would store: the same pet is the same request, whatever else the body held. */
function fingerprintOf({ name, categoryId, status }: NewPet): string {
  return JSON.stringify([name, categoryId, status ?? null]);
}
