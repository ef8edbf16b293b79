// The SQL limit store as callers pile up (#28): rate-limit takes with 10^2 and with 10^5 distinct
// callers already counted today, on PGlite and on a throwaway PostgreSQL, the two sizes taking turns.
// Run by bench/sql-limits.mjs (bundled: Node 20 cannot run TypeScript); prints one JSON line.
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { quotaWindows } from '../src/limits/limiter.ts';
import { migrate, pgliteClient, postgresClient, type SqlClient, sqlLimitStore } from '../stores/sql/index.ts';
import { startPostgres } from '../test/sql/postgres-server.ts';

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes('--quick');
const PASSES = Number(option('passes') ?? (quick ? 3 : 5));
/** Takes per pass and size: the rate 16 at a time, then the latencies one at a time. */
const TAKES = Number(option('takes') ?? (quick ? 500 : 2_000));
const LATENCIES = Number(option('latencies') ?? (quick ? 300 : 1_000));
const SIZES = [100, 100_000] as const;

/** A quota no take reaches: every take is admitted and counted, as most are. */
const QUOTA = { perMinute: 1e9, perDay: 1e9 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

/**
 * `callers` anonymous callers counted earlier today, as takes leave them: a subject row whose state
 * ends with the day, an ended minute counter and a live day counter each. In two statements, not
 * 10^5 takes; then ANALYZE, as PostgreSQL's autovacuum would after such a load.
 */
async function fill(client: SqlClient, callers: number, now: number): Promise<void> {
  const [minute, day] = quotaWindows(now, QUOTA);
  const earlier = minute!.start - 60_000;
  await client.query(
    `INSERT INTO petstore_limit_subjects (subject, windows_end) SELECT 'address:caller-' || n, $2::bigint FROM generate_series(1, $1::int) n`,
    [callers, day!.end],
  );
  await client.query(
    `INSERT INTO petstore_limit_counters (subject, window_name, window_start, window_end, used)
     SELECT 'address:caller-' || n, w.name, w.start_at, w.end_at, 1 + n % 7 FROM generate_series(1, $1::int) n,
       (VALUES ('minute', $2::bigint, $3::bigint), ('day', $4::bigint, $5::bigint)) w (name, start_at, end_at)`,
    [callers, earlier, minute!.start, day!.start, day!.end],
  );
  await client.query('ANALYZE');
}

/** One pass on one database: `TAKES` takes 16 at a time (the rate), then `LATENCIES` one at a time (p50, p99 in µs), each by a caller picked at random among `callers`. */
async function pass(client: SqlClient, callers: number) {
  const store = sqlLimitStore(client);
  const caller = () => `address:caller-${1 + Math.floor(Math.random() * callers)}` as const;
  const take = () => {
    const now = Date.now();
    return store.take(caller(), quotaWindows(now, QUOTA), now);
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next++ < TAKES) await take();
    }),
  );
  const rate = TAKES / ((performance.now() - started) / 1000);
  const times: number[] = [];
  for (let i = 0; i < LATENCIES; i++) {
    const at = performance.now();
    await take();
    times.push((performance.now() - at) * 1000);
  }
  return { rate, p50: median(times), p99: percentile(times, 99) };
}

/** Each size's database filled, then `PASSES` passes with the sizes taking turns (the order rotating); medians per size, and the per-pass ratio of rates. */
async function measure(clients: Record<(typeof SIZES)[number], SqlClient>) {
  const now = Date.now();
  for (const size of SIZES) await fill(clients[size], size, now);
  for (const size of SIZES) await pass(clients[size], size); // warm-up: plans, caches, JIT
  const runs = new Map<number, Awaited<ReturnType<typeof pass>>[]>(SIZES.map((size) => [size, []]));
  for (let p = 0; p < PASSES; p++) {
    const order = p % 2 ? [...SIZES].reverse() : SIZES;
    for (const size of order) runs.get(size)!.push(await pass(clients[size], size));
  }
  const summary = (size: number) => {
    const r = runs.get(size)!;
    return { rate: median(r.map((x) => x.rate)), p50: median(r.map((x) => x.p50)), p99: median(r.map((x) => x.p99)), rates: r.map((x) => x.rate) };
  };
  const [few, many] = SIZES.map(summary) as [ReturnType<typeof summary>, ReturnType<typeof summary>];
  // Few ÷ many per pass: how many times slower a take is with 10^5 callers present.
  const slowdowns = few.rates.map((rate, i) => rate / many.rates[i]!);
  return { few, many, slowdown: median(slowdowns), slowdowns };
}

const pglites = await Promise.all(SIZES.map(() => PGlite.create()));
const pgliteClients = Object.fromEntries(SIZES.map((size, i) => [size, pgliteClient(pglites[i]!)])) as Record<(typeof SIZES)[number], SqlClient>;
for (const client of Object.values(pgliteClients)) await migrate(client);
const pgliteResult = await measure(pgliteClients);
for (const db of pglites) await db.close();

const cluster = await startPostgres();
const pools = await Promise.all(SIZES.map(async () => postgres(await cluster.freshDatabase(), { max: 16, onnotice: () => {} })));
const postgresClients = Object.fromEntries(SIZES.map((size, i) => [size, postgresClient(pools[i]!, { timeoutMs: 0 })])) as Record<
  (typeof SIZES)[number],
  SqlClient
>;
for (const client of Object.values(postgresClients)) await migrate(client);
const postgresResult = await measure(postgresClients);
for (const sql of pools) await sql.end();
await cluster.stop();

console.log(JSON.stringify({ pglite: pgliteResult, postgres: postgresResult, sizes: SIZES, passes: PASSES, takes: TAKES, latencies: LATENCIES }));
