/**
 * Property-based fuzzing of the handler in process: generated requests, hostile and careless, on a
 * sound storage and on one failing 20% of calls. test/fuzz runs it at full count, test/unit a few
 * hundred of the same cases (one seed, so the first cases are the same) for daily work.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createPetStore, PetStoreWarning, type PetStorage } from '../../compose/index.ts';
import { memoryPetStorage } from '../../stores/memory/index.ts';
import { allPets } from '../../src/storage/bulk.ts';
import { PetSchema } from '../../src/storage/pet.ts';
import { contractCheckerFor } from '../contract/checker.ts';
import { faultyStorage, seededRandom } from '../helpers/faulty-storage.ts';
import { FUZZ_SEED as seed, sayTheSeedOnFailure } from '../helpers/fuzz-seed.ts';
import { FUZZ_KEY, requestSpec, toRequest, type RequestSpec } from './arbitraries.ts';
import { manualClock } from '../../testing/index.ts';

/** A safety net, not a measure: 20 ms a request is several times what a loaded two-core machine takes. */
const timeoutFor = (requests: number) => Math.max(20_000, requests * 20);

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

/** How many generated requests each of the two properties gets. */
export interface HandlerFuzzCounts {
  /** On a sound memory storage. */
  readonly requests: number;
  /** On a storage failing 20% of calls. */
  readonly withFailingStorage: number;
}

/**
 * The handler fuzz suite, `requests` and `withFailingStorage` generated requests long.
 *
 * @example
 * describeHandlerFuzz({ requests: 10_000, withFailingStorage: 2_000 });
 */
export function describeHandlerFuzz({ requests, withFailingStorage }: HandlerFuzzCounts): void {
  describe('fuzzing the handler', () => {
    it(
      `answers ${requests.toLocaleString('en')} generated requests with documented successes or Error bodies, never a 500, and stays clean`,
      async () => {
        sayTheSeedOnFailure();
        const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
        const storage = memoryPetStorage();
        const target = fuzzTarget(storage);
        await fc.assert(
          fc.asyncProperty(requestSpec, async (spec) => {
            const { problems, status } = await target.exchange(spec);
            expect(problems).toEqual([]);
            expect(status).not.toBe(500);
          }),
          { numRuns: requests, seed },
        );
        expect(target.unexpected).toEqual([]);
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        const pets = await allPets(storage);
        // The generators do reach the happy path: about one request in 100 creates a pet, and any seed's run gets one in 400.
        expect(pets.length).toBeGreaterThanOrEqual(Math.ceil(requests / 400));
        expect(pets.filter((pet) => !v.is(PetSchema, pet))).toEqual([]);
        expect(pets.map((p) => p.id)).toEqual(target.created.sort((a, b) => a - b));
      },
      timeoutFor(requests),
    );

    it(
      `with a storage failing 20% of calls, over ${withFailingStorage.toLocaleString('en')} requests: 500s only where a fault was injected, and only acknowledged pets exist`,
      async () => {
        sayTheSeedOnFailure();
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
          { numRuns: withFailingStorage, seed },
        );
        expect(injected()).toBeGreaterThan(0);
        expect(target.unexpected.every((e) => String(e).includes('injected'))).toBe(true);
        const pets = await allPets(inner);
        expect(pets.map((p) => p.id)).toEqual(target.created.sort((a, b) => a - b));
      },
      timeoutFor(withFailingStorage),
    );
  });
}
