// @ts-check
/** One of several instances sharing pets and quotas through Redis: `REDIS_URL=redis://… node examples/many-instances/index.js`. */
import { parseApiKeys } from 'petstore-service';
import { serve } from 'petstore-service/node';
import { redisPetStorage, redisLimitStore } from 'petstore-service/redis';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }); // fail fast, never hang
redis.on('error', (error) => console.error('redis:', error.message)); // it reconnects by itself
await redis.connect();

const server = await serve({
  port: Number(process.env.PORT ?? 8080),
  apiKeys: parseApiKeys(process.env.PETSTORE_API_KEYS ?? 'demo-key:free'),
  storage: redisPetStorage(redis),
  limitStore: redisLimitStore(redis),
});
console.log(`Pet Store instance listening on ${server.url}`);

// On SIGINT or SIGTERM: let in-flight requests finish, then close the Redis client, which would
// otherwise keep the process alive. (serve's handleSignals closes only the server.)
const stop = async () => {
  process.off('SIGINT', stop).off('SIGTERM', stop); // a second signal ends it at once
  await server.close();
  await redis.close();
};
process.on('SIGINT', stop).on('SIGTERM', stop);
