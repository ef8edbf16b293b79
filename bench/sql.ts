// The durable stores, measured at the storage: creates, a first page and a filtered page at 10^5 pets, a
// rare-status page at 10^3 and 10^6 pets, and
// rate-limit takes, on PGlite, on a throwaway PostgreSQL, and (for takes) on Redis and in memory.
// Run by bench/sql.mjs (bundled: Node 20 cannot run TypeScript); prints one JSON line.
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { createClient } from 'redis';
import { redisLimitStore } from '../stores/redis/index.ts';
import { migrate, pgliteClient, postgresClient, sqlLimitStore, sqlPetStorage, type SqlClient } from '../stores/sql/index.ts';
import { quotaWindows } from '../src/limits/limiter.ts';
import type { LimitStore } from '../src/limits/limit-store.ts';
import { memoryLimitStore } from '../src/limits/memory-limit-store.ts';
import { startRedis } from '../test/redis/redis-server.ts';
import { startPostgres } from '../test/sql/postgres-server.ts';

const quick = process.argv.includes('--quick');
const PETS = 100_000;
const CREATES = quick ? 300 : 2_000;
const PAGES = quick ? 200 : 1_000;
const TAKES = quick ? 500 : 3_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** Per-second rate of `count` calls of `run`, `concurrency` at a time. */
async function rate(count: number, concurrency: number, run: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await run(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** p50 in µs of `count` sequential calls. */
async function p50(count: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run();
    times.push((performance.now() - started) * 1000);
  }
  return median(times);
}

async function storageRows(client: SqlClient) {
  await migrate(client);
  const storage = sqlPetStorage(client);
  const createsSequential = await rate(CREATES, 1, (i) => storage.create({ name: `pet ${i}`, categoryId: 1 }));
  const createsConcurrent = await rate(CREATES, 16, (i) => storage.create({ name: `pet ${i}`, categoryId: 1 }));
  // The rest of 10^5 pets, one in 1,000 sold, written in bulk (the API's create path was measured above).
  const [{ last_id: last }] = (await client.query('SELECT last_id FROM petstore_pet_ids')) as [{ last_id: unknown }];
  await client.query(
    `INSERT INTO petstore_pets (id, name_json, category_id, status)
     SELECT n, '"pet"', 1, CASE WHEN n % 1000 = 0 THEN 'sold' ELSE 'available' END FROM generate_series($1::bigint + 1, $2::bigint) n`,
    [Number(last), PETS],
  );
  await client.query('UPDATE petstore_pet_ids SET last_id = $1', [PETS]);
  await client.query('ANALYZE petstore_pets');
  const firstPage = await p50(PAGES, () => storage.list({ after: 0, limit: 21 }));
  const filteredPage = await p50(PAGES, () => storage.list({ status: 'sold', after: 50_000, limit: 21 }));
  return { createsSequential, createsConcurrent, firstPage, filteredPage };
}

/**
 * The filtered page an index must keep cheap: a rare status (42 pending pets, the newest ids) asked
 * for from the start, at 10^3 and at 10^6 pets, on a fresh schema. Without the (status, id) index
 * the database walks every id from the start to find them.
 */
async function rareStatusPages(client: SqlClient): Promise<{ thousand: number; million: number }> {
  await migrate(client);
  const storage = sqlPetStorage(client);
  const pageAt = async (pets: number) => {
    const [{ last_id: last }] = (await client.query('SELECT last_id FROM petstore_pet_ids')) as [{ last_id: unknown }];
    await client.query(
      `INSERT INTO petstore_pets (id, name_json, category_id, status) SELECT n, '"pet"', 1, 'available' FROM generate_series($1::bigint + 1, $2::bigint) n`,
      [Number(last), pets],
    );
    await client.query('UPDATE petstore_pet_ids SET last_id = $1', [pets]);
    await client.query(`UPDATE petstore_pets SET status = CASE WHEN id > $1 THEN 'pending' ELSE 'available' END WHERE status = 'pending' OR id > $1`, [
      pets - 42,
    ]);
    await client.query('ANALYZE petstore_pets');
    return p50(PAGES, () => storage.list({ status: 'pending', after: 0, limit: 21 }));
  };
  const thousand = await pageAt(1_000);
  const million = await pageAt(1_000_000);
  return { thousand, million };
}

async function takes(store: LimitStore): Promise<number> {
  const windows = quotaWindows(Date.now(), { perMinute: 1e9, perDay: 1e9 });
  return rate(TAKES, 16, (i) => store.take(`key:${i % 50}`, windows, Date.now()));
}

const pglite = await PGlite.create();
const pgliteClientOf = pgliteClient(pglite);
const pgliteRows = await storageRows(pgliteClientOf);
const pgliteTakes = await takes(sqlLimitStore(pgliteClientOf));
await pglite.close();
const pgliteForScale = await PGlite.create();
const pgliteRare = await rareStatusPages(pgliteClient(pgliteForScale));
await pgliteForScale.close();

const cluster = await startPostgres();
const sql = postgres(await cluster.freshDatabase(), { max: 16, onnotice: () => {} });
const client = postgresClient(sql);
const postgresRows = await storageRows(client);
const postgresTakes = await takes(sqlLimitStore(client));
await sql.end();
const sqlForScale = postgres(await cluster.freshDatabase(), { max: 1, onnotice: () => {} });
const postgresRare = await rareStatusPages(postgresClient(sqlForScale, { timeoutMs: 0 }));
await sqlForScale.end();
await cluster.stop();

const redis = await startRedis();
const redisClient = await createClient({ url: redis.url }).connect();
const redisTakes = await takes(redisLimitStore(redisClient));
await redisClient.destroy();
await redis.stop();

const memoryTakes = await takes(memoryLimitStore());
console.log(
  JSON.stringify({
    pglite: { ...pgliteRows, takes: pgliteTakes, rare: pgliteRare },
    postgres: { ...postgresRows, takes: postgresTakes, rare: postgresRare },
    redisTakes,
    memoryTakes,
    pets: PETS,
  }),
);
