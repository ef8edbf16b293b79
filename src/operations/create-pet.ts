/** POST /pets: validates a NewPet and stores it under a fresh id, at most once per Idempotency-Key. */
import { ApiError } from '../response/api-error.ts';
import type { Reply } from '../response/reply.ts';
import { NewPetSchema, type NewPet } from '../storage/pet.ts';
import { readJsonObject } from './body.ts';
import { CreateHeadersSchema, IDEMPOTENCY_TTL_MS } from './inputs.ts';
import type { OperationContext } from './types.ts';
import { apiUrl } from './urls.ts';
import { parseInput } from './validation.ts';

/** Creates a pet; answers 201 with the stored pet and its `Location`. */
export async function createPet({ request, body: hostBody, base, settings, keyId }: OperationContext): Promise<Reply> {
  const sent = request.headers.get('idempotency-key');
  // An absent key is valid: the schema runs only on one that was sent (BENCHMARKS.md, HTTP: the POST row).
  const key = sent === null ? undefined : parseInput(CreateHeadersSchema, { 'Idempotency-Key': sent }, 'header')['Idempotency-Key'];
  const body = await readJsonObject(request, settings.maxBodyBytes, hostBody);
  const parsed = parseInput(NewPetSchema, body, 'body');
  const status = parsed.status ?? settings.defaultStatus;
  const newPet: NewPet = status === undefined ? parsed : Object.assign({}, parsed, { status });
  if (key === undefined) {
    const pet = await settings.storage.create(newPet);
    return { status: 201, body: pet, headers: { Location: apiUrl(base, `/pets/${pet.id}`) } };
  }

  const now = settings.now();
  // Keys belong to the API key that sent them, so two clients cannot collide or peek.
  const scopedKey = `${keyId ?? 'anonymous'}:${key}`;
  const fingerprint = fingerprintOf(newPet);
  const { record, created } = await settings.storage.createOnce(scopedKey, fingerprint, newPet, now + IDEMPOTENCY_TTL_MS, now);
  if (record.fingerprint !== fingerprint) {
    throw new ApiError({ status: 422, code: 'idempotency_key_reused', message: 'This Idempotency-Key was used with a different body in the last 24 hours.' });
  }
  const responseHeaders: Record<string, string> = { Location: apiUrl(base, `/pets/${record.pet.id}`) };
  if (!created) responseHeaders['Idempotent-Replayed'] = 'true';
  return { status: 201, body: record.pet, headers: responseHeaders };
}

/** Identifies what a create would store: the same pet is the same request, whatever else the body held. */
function fingerprintOf({ name, categoryId, status }: NewPet): string {
  return JSON.stringify([name, categoryId, status ?? null]);
}
