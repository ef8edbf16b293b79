/** What the Redis stores tell /readyz and telemetry, on a fake client in process: they name Redis, ping without waiting on a client that is not connected, count with ZCARD. */
import { describe, expect, it } from 'vitest';
import { redisLimitStore, redisPetStorage, type RedisScriptClient } from './index.ts';

/** A client that runs no Lua: it notes every script's source, keys and arguments, and answers with `answer`. */
function fakeClient(answer: unknown, extra: Partial<RedisScriptClient> = {}) {
  const scripts: { script: string; keys: string[]; arguments: string[] }[] = [];
  const client: RedisScriptClient = {
    async evalSha() {
      throw new Error('NOSCRIPT No matching script');
    },
    async eval(script, options) {
      scripts.push({ script, ...options });
      return answer;
    },
    ...extra,
  };
  return { client, scripts };
}

describe('the Redis stores', () => {
  it('both name their database Redis (db.system.name redis)', () => {
    const { client } = fakeClient(null);
    expect(redisPetStorage(client).database).toEqual({ system: 'redis', name: 'Redis' });
    expect(redisLimitStore(client).database).toEqual({ system: 'redis', name: 'Redis' });
  });

  it('reject a ping at once, sending nothing, while the client says it is not connected', async () => {
    let pings = 0;
    const { client, scripts } = fakeClient(1, { isReady: false, ping: () => new Promise(() => void pings++) });
    await expect(redisPetStorage(client).ping!()).rejects.toThrow('Redis: the client is not connected');
    await expect(redisLimitStore(client).ping!()).rejects.toThrow('Redis: the client is not connected');
    expect([pings, scripts]).toEqual([0, []]);
  });

  it("ping with the client's PING when it has one, and resolve when Redis answers", async () => {
    let pings = 0;
    const { client, scripts } = fakeClient(1, { isReady: true, ping: async () => (pings++, 'PONG') });
    await expect(redisPetStorage(client).ping!()).resolves.toBeUndefined();
    await expect(redisLimitStore(client).ping!()).resolves.toBeUndefined();
    expect([pings, scripts]).toEqual([2, []]);
  });

  it('ping with a script that returns 1 through a client that has only scripts', async () => {
    const { client, scripts } = fakeClient(1);
    await expect(redisPetStorage(client).ping!()).resolves.toBeUndefined();
    expect(scripts).toEqual([{ script: 'return 1', keys: [], arguments: [] }]);
  });

  it('count the pets with ZCARD of the set of all pets under their prefix', async () => {
    const { client, scripts } = fakeClient(42);
    expect(await redisPetStorage(client, { prefix: 'staging:' }).count!()).toBe(42);
    expect(scripts).toEqual([{ script: "return redis.call('ZCARD', KEYS[1])", keys: ['staging:pets:all'], arguments: [] }]);
  });
});
