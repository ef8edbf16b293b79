// @ts-check
/** One instance: pets in PostgreSQL, quotas in Redis, both shared with every other instance on them. Started by index.js. */
import postgres from 'postgres';
import { createClient } from 'redis';
import { parseApiKeys } from 'petstore-service';
import { serve } from 'petstore-service/node';
import { redisLimitStore } from 'petstore-service/redis';
import { migrate, postgresClient, sqlPetStorage } from 'petstore-service/sql';

// A short connect timeout and backoff: after an outage, the pool is back within half a second.
const sql = postgres(process.env.DATABASE_URL ?? 'postgres://localhost/petstore', { connect_timeout: 5, backoff: () => 0.5, onnotice: () => {} });
const database = postgresClient(sql);
await migrate(database); // every instance runs it; the first creates the tables, the others wait

const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true }); // fail fast, never queue
redis.on('error', (error) => console.error('redis:', error.message)); // it reconnects by itself
await redis.connect();

const server = await serve({
  port: Number(process.env.PORT ?? 8081),
  apiKeys: parseApiKeys(process.env.PETSTORE_API_KEYS ?? 'demo-key:free'),
  storage: sqlPetStorage(database),
  limitStore: redisLimitStore(redis),
});
console.log(`Pet Store instance ${process.pid} listening on ${server.url}`);

// On SIGINT or SIGTERM: let in-flight requests finish, then close both clients, which would
// otherwise keep the process alive (serve's handleSignals closes only the server).
const stop = async () => {
  process.off('SIGINT', stop).off('SIGTERM', stop).off('disconnect', stop); // a second signal ends it at once
  await server.close();
  await Promise.all([redis.close(), sql.end({ timeout: 5 })]);
};
process.on('SIGINT', stop).on('SIGTERM', stop);
// Started by index.js: stop too when it is gone, even if it was killed with -9.
if (process.send) process.on('disconnect', stop);
