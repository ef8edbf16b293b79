/** petstore-service/redis: pets and rate limits in Redis, shared by every instance of the API. */
import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type {
  CreateOnceResult,
  IdempotencyRecord,
  LimitStore,
  NewPet,
  Pet,
  PetListQuery,
  PetStorage,
  QuotaWindow,
  StoreDatabase,
  Subject,
  TakeResult,
} from '../../src/index.ts';
import { BAN, COUNT, CREATE, CREATE_ONCE, PAGE, PING, REJECT, TAKE } from './scripts.ts';

/**
 * What these stores need of a Redis client: scripts, and for `/readyz` optionally `ping` and
 * `isReady`. A node-redis (`redis`) client fits as is.
 *
 * @example
 * const client: RedisScriptClient = await createClient({ url, disableOfflineQueue: true }).on('error', log).connect();
 */
export interface RedisScriptClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  /** Sends PING; without it, the stores' `ping` runs a script that returns 1. */
  ping?(): Promise<unknown>;
  /**
   * Whether the connection is up and ready, as node-redis says: while it is false the stores'
   * `ping` rejects at once, rather than wait on a client that queues commands until it reconnects.
   */
  readonly isReady?: boolean;
}

/** What both stores name their database. */
const REDIS: StoreDatabase = Object.freeze({ system: 'redis', name: 'Redis' });

/** Options of both Redis stores. */
export interface RedisOptions {
  /** Prefix of every key, so several APIs can share one Redis. Default `petstore:`. */
  readonly prefix?: string;
}

/** Runs a script by its SHA-1 (cached by Redis), sending the source only when Redis lacks it. */
function scriptRunner(client: RedisScriptClient) {
  const hashes = new Map<string, string>();
  return async (script: string, keys: string[], args: (string | number)[]): Promise<unknown> => {
    let sha = hashes.get(script);
    if (!sha) hashes.set(script, (sha = bytesToHex(sha1(utf8ToBytes(script)))));
    const options = { keys, arguments: args.map(String) };
    try {
      return await client.evalSha(sha, options);
    } catch (error) {
      if (!String((error as Error)?.message).includes('NOSCRIPT')) throw error;
      return client.eval(script, options);
    }
  };
}

/**
 * The stores' `ping`: rejects at once while the client says it is not connected, else resolves
 * when Redis answers a PING (or the script standing in for one).
 */
function pinger(client: RedisScriptClient, run: ReturnType<typeof scriptRunner>) {
  return async (): Promise<void> => {
    if (client.isReady === false) throw new Error('Redis: the client is not connected');
    await (client.ping ? client.ping() : run(PING, [], []));
  };
}

/** `{"name":…,"categoryId":…,"status":…}` without its braces, so the script can put the id first. */
const fieldsOf = (pet: NewPet) => JSON.stringify(pet).slice(1, -1);

/**
 * A {@link PetStorage} in Redis: ids from `INCR`, one sorted set of pet JSON per status (and one
 * for all) scored by id, so a page is one `ZRANGEBYSCORE … LIMIT`: O(log n + limit). Every write
 * is one Lua script, so a create is whole or absent. `count` is `ZCARD` of the set of all pets,
 * O(1); `ping` answers `/readyz` (see {@link RedisScriptClient}).
 *
 * @example
 * import { createClient } from 'redis';
 * const client = await createClient({ url, disableOfflineQueue: true }).on('error', log).connect();
 * const petstore = createPetStore({ storage: redisPetStorage(client) });
 */
export function redisPetStorage(client: RedisScriptClient, options: RedisOptions = {}): PetStorage {
  const prefix = `${options.prefix ?? 'petstore:'}pets:`;
  const run = scriptRunner(client);
  const lastId = `${prefix}lastId`;
  const all = `${prefix}all`;
  const byStatus = (status?: string) => `${prefix}status:${status ?? 'none'}`;

  return {
    database: REDIS,
    ping: pinger(client, run),
    async count(): Promise<number> {
      return Number(await run(COUNT, [all], []));
    },
    async create(pet: NewPet): Promise<Pet> {
      return JSON.parse(String(await run(CREATE, [lastId, all, byStatus(pet.status)], [fieldsOf(pet), pet.status ?? ''])));
    },
    async createOnce(key, fingerprint, pet, expiresAt, now): Promise<CreateOnceResult> {
      const keys = [`${prefix}idempotency:${key}`, lastId, all, byStatus(pet.status)];
      const args = [fingerprint, expiresAt, now, fieldsOf(pet), pet.status ?? '', Math.max(1, expiresAt - now)];
      const [created, recordJson] = (await run(CREATE_ONCE, keys, args)) as [number, string];
      const stored = JSON.parse(recordJson) as { fingerprint: string; expiresAt: string; pet: string };
      const record: IdempotencyRecord = { fingerprint: stored.fingerprint, expiresAt: Number(stored.expiresAt), pet: JSON.parse(stored.pet) };
      return { record, created: created === 1 };
    },
    async get(id: number): Promise<Pet | undefined> {
      const [json] = (await run(PAGE, [all], [id - 1, 1])) as string[];
      const pet = json === undefined ? undefined : (JSON.parse(json) as Pet);
      return pet?.id === id ? pet : undefined;
    },
    async list({ status, after, limit }: PetListQuery): Promise<Pet[]> {
      const page = (await run(PAGE, [status === undefined ? all : byStatus(status)], [after, limit])) as string[];
      return page.map((json) => JSON.parse(json) as Pet);
    },
  };
}

/**
 * A {@link LimitStore} in Redis, for many instances sharing quotas: one script checks and
 * takes every window of a request atomically; counters and bans carry TTLs, so each counter
 * expires with its window and each ban at its end, and nothing else removes them.
 *
 * That holds only while Redis itself evicts nothing. Keep Redis' default
 * `maxmemory-policy noeviction` (or no `maxmemory`): under a `volatile-*` policy every key of
 * this store is a candidate, since all carry TTLs, and under `allkeys-*` any key is; either way
 * a flood of anonymous callers could push bans and key counters out, lifting bans and restarting
 * quotas. Check with `redis-cli CONFIG GET maxmemory-policy` (expect `noeviction`) and
 * `redis-cli INFO stats` (expect `evicted_keys:0`). With `noeviction`, a full Redis refuses the
 * scripts instead, so requests fail with a 500 until memory frees: the limits fail closed.
 * `ping` answers `/readyz` (see {@link RedisScriptClient}).
 *
 * @example
 * const petstore = createPetStore({ limitStore: redisLimitStore(client) });
 */
export function redisLimitStore(client: RedisScriptClient, options: RedisOptions = {}): LimitStore {
  const prefix = `${options.prefix ?? 'petstore:'}rate:`;
  const run = scriptRunner(client);
  const banKey = (subject: Subject) => `${prefix}ban:${subject}`;

  return {
    database: REDIS,
    ping: pinger(client, run),
    async take(subject: Subject, windows: readonly QuotaWindow[], now: number): Promise<TakeResult> {
      const keys = [banKey(subject), ...windows.map((w) => `${prefix}count:${subject}:${w.name}:${w.start}`)];
      const args = [now, ...windows.map((w) => w.limit), ...windows.map((w) => Math.max(1, w.end - now))];
      const [admitted, bannedUntil, ...used] = (await run(TAKE, keys, args)) as number[];
      return bannedUntil ? { admitted: false, used, bannedUntil } : { admitted: admitted === 1, used };
    },
    async reject(subject: Subject, window: QuotaWindow, now: number): Promise<number> {
      return Number(await run(REJECT, [`${prefix}refused:${subject}:${window.start}`], [Math.max(1, window.end - now)]));
    },
    async ban(subject: Subject, until: number, now: number): Promise<void> {
      await run(BAN, [banKey(subject)], [until, Math.max(1, until - now)]);
    },
  };
}
