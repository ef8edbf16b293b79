/** A real server flooded by 200,200 anonymous callers from distinct addresses keeps its bans, its key quotas and its memory bound. */
// @module-tag netns (skipped unless root, failed under CI: test/helpers/system-parts.ts)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePart } from '../helpers/system-parts.ts';

const FLOOD = 100_100; // past the memory store's default of 100,000 anonymous callers
/** The RSS bound README.md states for the server after the flood. */
const RSS_BOUND_MIB = 320;
/**
 * How much the server's live heap may grow over the whole flood: room for the 100,000 anonymous
 * callers the store keeps, at about 200 bytes each (README.md), but not for the 200,200 it would
 * hold (about 40 MiB) if anonymous state were unbounded.
 */
const LIVE_GROWTH_BOUND_MIB = 32;
const NOW = Date.parse('2026-11-22T10:00:10Z');
const BANNED_KEY = 'flood-banned-key';
const COUNTED_KEY = 'flood-counted-key';
const BANNED_IPV4 = '127.0.0.2';
const BANNED_IPV6 = '2001:db8:ffff:ff00::1';
/** Another address of BANNED_IPV6's /56: anonymous callers are limited per /56 by default. */
const SAME_56 = '2001:db8:ffff:ffab:cd::2';
// Sets up the fresh namespace, then execs node, so the spawned pid is the server's own.
const NAMESPACE_SETUP = [
  'ip link set lo up',
  'ip -6 route add local 2001:db8::/32 dev lo', // the whole documentation prefix is this host's
  'sysctl -qw net.ipv6.ip_nonlocal_bind=1', // so clients may bind any of it as their source
  'exec "$0" "$@"',
].join(' && ');

type Answer = { status: number; code?: string; remaining?: string };
type FloodResult = { statuses: Record<string, number>; ms: number };

let server: ChildProcess | undefined;
let port = 0;
let serverOutput = '';
/** The server's memory at each step, in MiB: VmRSS as the kernel counts it, then the live heap after a GC. */
const memory: Record<string, { rss: number; live: number }> = {};
const MIB = 2 ** 20;

/** Reads the server's VmRSS from /proc (before any GC, as an operator would see it), then asks it for its live heap. */
async function measureServer(step: string): Promise<void> {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server!.pid}/status`, 'utf8'))?.[1];
  const seen = serverOutput.length;
  server!.stdin!.write('memory\n');
  const line = await new Promise<string>((resolve) => {
    // Runs after the listener that appends to serverOutput, registered first.
    const onData = () => {
      const found = /memory (\{.*\})\n/.exec(serverOutput.slice(seen))?.[1];
      if (!found) return;
      server!.stdout!.off('data', onData);
      resolve(found);
    };
    server!.stdout!.on('data', onData);
  });
  memory[step] = { rss: (Number(kib) * 1024) / MIB, live: (JSON.parse(line) as { live: number }).live / MIB };
}

/** Runs a job of flood-client.mjs inside the server's network namespace; resolves to what it prints. */
function client<T>(job: Record<string, unknown>): Promise<T> {
  const child = spawn('nsenter', [
    `--net=/proc/${server!.pid}/ns/net`,
    '--',
    process.execPath,
    'test/flood/flood-client.mjs',
    JSON.stringify({ port, ...job }),
  ]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout) as T) : reject(new Error(`flood client exited with ${code}: ${stderr}`))));
  });
}

const memoryText = ({ rss, live }: { rss: number; live: number }) => `RSS ${rss.toFixed(0)} MiB, live heap ${live.toFixed(1)} MiB`;
const send = async (from: string, count: number, key?: string) => (await client<{ answers: Answer[] }>({ kind: 'requests', from, key, count })).answers;
const once = async (from: string, key?: string) => (await send(from, 1, key))[0]!;

/** Asserts the state the floods must not move: the three bans of the setup, and COUNTED_KEY's minute quota. */
async function expectStateKept(countedRemaining: number) {
  expect(await once('127.0.0.1', BANNED_KEY)).toMatchObject({ status: 429, code: 'key_banned' });
  expect(await once(BANNED_IPV4)).toMatchObject({ status: 429, code: 'key_banned' });
  expect(await once(BANNED_IPV6)).toMatchObject({ status: 429, code: 'key_banned' });
  expect(await once('127.0.0.1', COUNTED_KEY)).toMatchObject({ status: 200, remaining: String(countedRemaining) });
}

/** 60 admitted (200, or 401 without a key), 10 refused, then banned. */
function expectBannedOn71st(answers: Answer[], admitted: number) {
  expect(answers.slice(0, 60).every((a) => a.status === admitted)).toBe(true);
  expect(answers.slice(60, 70).map((a) => a.code)).toEqual(Array(10).fill('rate_limited'));
  expect(answers[70]).toMatchObject({ status: 429, code: 'key_banned' });
}

describe('a flood of anonymous callers from distinct addresses (real server, network namespace)', () => {
  beforeAll(async () => {
    // Root, to make its own network namespace (unshare -n) for its IPv6 source addresses; CI runs as root.
    requirePart('netns');
    if (!existsSync('dist/node/index.js')) throw new Error('dist/ is missing: run npm run build (npm test does)');
    const env = { ...process.env, FLOOD_NOW: String(NOW), FLOOD_KEYS: `${BANNED_KEY},${COUNTED_KEY}` };
    const node = [process.execPath, '--expose-gc', 'test/flood/flood-server.mjs'];
    server = spawn('unshare', ['--net', '--', 'sh', '-c', NAMESPACE_SETUP, ...node], { env });
    server.stderr!.on('data', (chunk) => (serverOutput += chunk));
    port = await new Promise<number>((resolve, reject) => {
      server!.stdout!.on('data', (chunk) => {
        serverOutput += chunk;
        const found = /listening on http:\/\/[^/]*:(\d+)\//.exec(serverOutput)?.[1];
        if (found) resolve(Number(found));
      });
      server!.on('exit', (code) => reject(new Error(`the flood server exited with ${code}:\n${serverOutput}`)));
    });
    await measureServer('start');
  }, 30_000);

  afterAll(() => {
    server?.kill('SIGKILL'); // its namespace goes with it
  });

  it('bans a free key, an IPv4 caller and an IPv6 caller on their 71st request of the frozen minute', async () => {
    expectBannedOn71st(await send('127.0.0.1', 71, BANNED_KEY), 200);
    expectBannedOn71st(await send(BANNED_IPV4, 71), 401);
    expectBannedOn71st(await send(BANNED_IPV6, 71), 401);
    const counted = await send('127.0.0.1', 5, COUNTED_KEY);
    expect(counted.map((a) => a.remaining)).toEqual(['59', '58', '57', '56', '55']);
  });

  it('keeps every ban and the other key’s quota after 100,100 keyless requests from distinct IPv4 addresses', async () => {
    const result = await client<FloodResult>({ kind: 'flood', family: 4, count: FLOOD, concurrency: 200 });
    await measureServer('afterIPv4');
    console.log(`IPv4 flood: ${FLOOD} requests in ${result.ms} ms; server memory ${memoryText(memory.start!)} → ${memoryText(memory.afterIPv4!)}`);
    expect(result.statuses).toEqual({ 401: FLOOD });
    await expectStateKept(54);
  }, 120_000);

  it('keeps every ban and the other key’s quota after 100,100 keyless requests from distinct IPv6 /56 networks', async () => {
    const result = await client<FloodResult>({ kind: 'flood', family: 6, count: FLOOD, concurrency: 200 });
    await measureServer('afterIPv6');
    console.log(`IPv6 flood: ${FLOOD} requests in ${result.ms} ms; server memory → ${memoryText(memory.afterIPv6!)}`);
    expect(result.statuses).toEqual({ 401: FLOOD });
    await expectStateKept(53);
  }, 120_000);

  it('bans every address of the banned caller’s IPv6 /56, not only the one that earned the ban', async () => {
    expect(await once(SAME_56)).toMatchObject({ status: 429, code: 'key_banned' });
    expect(await once('2001:db8:ffff:fe00::1')).toMatchObject({ status: 401 }); // the /56 next door
  });

  it(`keeps the server under ${RSS_BOUND_MIB} MiB resident, its live heap grown by under ${LIVE_GROWTH_BOUND_MIB} MiB, after the flood`, () => {
    for (const step of ['afterIPv4', 'afterIPv6']) {
      expect(memory[step]!.rss, `RSS ${step}`).toBeLessThan(RSS_BOUND_MIB);
      expect(memory[step]!.live - memory.start!.live, `live heap growth ${step}`).toBeLessThan(LIVE_GROWTH_BOUND_MIB);
    }
  });
});
