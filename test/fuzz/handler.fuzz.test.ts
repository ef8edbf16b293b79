/** Property-based fuzzing of the handler in-process: 12,000 generated requests, hostile and careless. */
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createPetStore, PetStoreWarning, type PetStorage } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { allPets } from '../../src/storage/bulk.ts';
import { PetSchema } from '../../src/storage/pet.ts';
import { contractCheckerFor } from '../contract/checker.ts';
import { faultyStorage, seededRandom } from '../helpers/faulty-storage.ts';
import { FUZZ_KEY, requestSpec, toRequest, type RequestSpec } from './arbitraries.ts';
import { manualClock } from '../../testing/index.ts';

/** Reproduce a failure with FUZZ_SEED=<seed printed by fast-check> npm test. */
const seed = Number(process.env.FUZZ_SEED) || Math.floor(Math.random() * 2 ** 31);

function fuzzTarget(storage: PetStorage) {
  const clock = manualClock('2026-11-22T10:00:00Z');
  const unexpected: unknown[] = [];
  const petstore = createPetStore({
    apiKeys: { [FUZZ_KEY]: { perMinute: 1_000_000, perDay: 1_000_000_000 } },
    storage,
    now: clock.now,
    maxBodyBytes: 4096,
    cors: ['https://app.example'],
    // Warnings are told on purpose (a generated caller with no address, a forged X-Forwarded-For): failures are what is looked for.
    onError: (error) => void (error instanceof PetStoreWarning || unexpected.push(error)),
  });
  const created: number[] = [];

  /** Sends one generated request and returns what is wrong with the answer (nothing, ideally). */
  async function exchange(spec: RequestSpec): Promise<{ problems: string[]; status?: number }> {
    const request = toRequest(spec);
    if (!request) return { problems: [] };
    clock.advance(spec.advanceMs);
    const response = await petstore.fetch(request, { clientAddress: spec.clientAddress });
    const body = await response.text();
    const { pathname, search } = new URL(request.url);
    const where = `${request.method} ${pathname}${search} → ${response.status}`;
    const underBase = pathname === '/v1' || pathname.startsWith('/v1/');
    if (request.method === 'OPTIONS' && request.headers.has('origin') && spec.preflight && underBase) {
      return { problems: response.status === 204 && body === '' ? [] : [`${where}: bad preflight answer`] };
    }
    if (response.status === 201) created.push(JSON.parse(body).id);
    if (!underBase) {
      const ok = response.status === 404 && (request.method === 'HEAD' || JSON.parse(body).code === 'not_found');
      return { problems: ok ? [] : [`${where}: outside the base path`], status: response.status };
    }
    const check = await contractCheckerFor('/v1');
    const problems = check({ method: request.method, path: pathname.slice(3) + search, status: response.status, headers: response.headers, body });
    return { problems, status: response.status };
  }
  return { exchange, unexpected, created };
}

describe('fuzzing the handler (seed ' + seed + ')', () => {
  it('answers 10,000 generated requests with documented successes or Error bodies, never a 500, and stays clean', async () => {
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const storage = memoryPetStorage();
    const target = fuzzTarget(storage);
    await fc.assert(
      fc.asyncProperty(requestSpec, async (spec) => {
        const { problems, status } = await target.exchange(spec);
        expect(problems).toEqual([]);
        expect(status).not.toBe(500);
      }),
      { numRuns: 10_000, seed },
    );
    expect(target.unexpected).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const pets = await allPets(storage);
    expect(pets.length).toBeGreaterThan(100); // the generators do reach the happy path
    expect(pets.filter((pet) => !v.is(PetSchema, pet))).toEqual([]);
    expect(pets.map((p) => p.id)).toEqual(target.created.sort((a, b) => a - b));
  }, 120_000);

  it('with a storage failing 20% of calls: 500s only where a fault was injected, and only acknowledged pets exist', async () => {
    const inner = memoryPetStorage();
    const { storage, injected } = faultyStorage(inner, { rate: 0.2, random: seededRandom(seed) });
    const target = fuzzTarget(storage);
    await fc.assert(
      fc.asyncProperty(requestSpec, async (spec) => {
        const before = injected();
        const { problems, status } = await target.exchange(spec);
        expect(problems).toEqual([]);
        if (status === 500) expect(injected()).toBe(before + 1);
      }),
      { numRuns: 2_000, seed },
    );
    expect(injected()).toBeGreaterThan(0);
    expect(target.unexpected.every((e) => String(e).includes('injected'))).toBe(true);
    const pets = await allPets(inner);
    expect(pets.map((p) => p.id)).toEqual(target.created.sort((a, b) => a - b));
  }, 120_000);
});
