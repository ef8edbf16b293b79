// @ts-check
/** One of several instances sharing pets and quotas through Redis: `REDIS_URL=redis://… node examples/many-instances/index.js`. */
import { parseApiKeys } from 'petstore-service';
import { serve } from 'petstore-service/node';
import { redisPetStorage, redisLimitStore } from 'petstore-service/redis';
import { createClient } from 'redis';

const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }); // fail fast, never hang
redis.on('error', (error) => console.error('redis:', error.message)); // it reconnects by itself
await redis.connect();

const { url } = await serve({
  port: Number(process.env.PORT ?? 8080),
  apiKeys: parseApiKeys(process.env.PETSTORE_API_KEYS ?? 'demo-key:free'),
  storage: redisPetStorage(redis),
  limitStore: redisLimitStore(redis),
  handleSignals: true,
});
console.log(`Pet Store instance listening on ${url}`);
