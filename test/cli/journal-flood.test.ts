/**
 * The command (built) with the admin API on, met by the journal-fill attack of issue #45: 10,000
 * keyless `POST /v1/pets` with 64 KiB bodies and 14 KB of headers, then the same with the free key
 * of each of four sandboxes. Every journal shares one budget of bytes (16 MiB by default), refused
 * requests keep no body and few headers, and `GET /__admin/requests` streams: the server stays under
 * 256 MB of RSS and answers the journal with JSON afterwards. Linux only: the memory is read from /proc.
 * 16 keep-alive connections at a time, as a CI machine of 2 cores can carry beside the server.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runCli, listening, statusKb } from '../helpers/cli.ts';

const TOKEN = 'flood-admin-token-0123';
const BODY = Buffer.alloc(64 * 1024, 'x');
/** 14 headers of 1,000 bytes: with the rest, under node:http's 16 KiB of head. */
const PADDING = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`x-pad-${i}`, 'p'.repeat(1_000)]));
const CONNECTIONS = 16;
const MOST_RSS_KB = 256 * 1024;

/** One POST of the 64 KiB body with the padding headers (and `authorization`, if given) on `agent`: its status. */
function post(url: string, agent: Agent, authorization: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...PADDING, 'content-type': 'application/json', 'content-length': String(BODY.length), ...(authorization && { authorization }) };
    const req = request(url, { method: 'POST', agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

/** `count` POSTs over {@link CONNECTIONS} keep-alive connections; the statuses counted, and the server's RSS sampled as they go. */
async function flood(url: string, count: number, pid: number, authorization?: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const statuses = new Map<number, number>();
  let sent = 0;
  let mostRss = 0;
  const worker = async () => {
    while (sent < count) {
      sent++;
      const status = await post(url, agent, authorization);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (sent % 250 === 0) mostRss = Math.max(mostRss, statusKb(pid, 'VmRSS'));
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  return { statuses: Object.fromEntries(statuses), mostRss };
}

/** The CPU seconds (user + system) process `pid` has used, from /proc/<pid>/stat, in clock ticks of 1/100 s. */
function cpuSeconds(pid: number): number {
  // The fields after the command's name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

describe('petstore-service --admin-token met by the journal-fill attack', () => {
  it.skipIf(process.platform !== 'linux')(
    'stays under 256 MB of RSS through 10,000 keyless uploads and 4 sandboxes’ 2,500 each, and answers GET /__admin/requests with JSON after',
    async () => {
      const cli = runCli(['--port', '0', '--quiet', '--ban-hold-ms', '0', '--admin-token', TOKEN]);
      const url = await listening(cli);
      const origin = new URL(url).origin;
      const pid = cli.child.pid!;
      const admin = { headers: { authorization: `Bearer ${TOKEN}` } };
      const started = statusKb(pid, 'VmRSS');
      const startedMs = performance.now();

      const keyless = await flood(`${url}/pets`, 10_000, pid);
      const afterKeyless = Math.max(keyless.mostRss, statusKb(pid, 'VmRSS'));
      // A full main journal: ten thousand refusals, answered whole.
      const full = await fetch(`${origin}/__admin/requests`, admin);
      const fullLength = full.status === 200 ? ((await full.json()) as unknown[]).length : -1;

      const sandboxes: { id: string; rss: number; refused: number }[] = [];
      for (let i = 0; i < 4; i++) {
        const opened = await fetch(`${origin}/__admin/sandboxes`, { method: 'POST', ...admin });
        expect(opened.status).toBe(201);
        const { id, keys } = (await opened.json()) as { id: string; keys: { free: string } };
        const { statuses, mostRss } = await flood(`${url}/pets`, 2_500, pid, `Bearer ${keys.free}`);
        sandboxes.push({ id, rss: Math.max(mostRss, statusKb(pid, 'VmRSS')), refused: statuses[429] ?? 0 });
      }
      const floodMs = performance.now() - startedMs;

      const main = await fetch(`${origin}/__admin/requests`, admin);
      expect(main.status).toBe(200);
      // The sandboxes' floods took the room of its oldest exchanges, maybe of all of them: an array still.
      const journaled = (await main.json()) as unknown[];
      const last = await fetch(`${origin}/__admin/sandboxes/${sandboxes.at(-1)!.id}/requests`, admin);
      expect(last.status).toBe(200);
      const inSandbox = (await last.json()) as { status: number; requestBody: string }[];
      const peak = statusKb(pid, 'VmHWM');
      console.log(
        `journal flood in ${(floodMs / 1000).toFixed(1)} s, server CPU ${cpuSeconds(pid).toFixed(1)} s: RSS ${mb(started)} at start, ` +
          `${mb(afterKeyless)} after 10,000 keyless, ${sandboxes.map(({ rss }) => mb(rss)).join(', ')} after each sandbox's 2,500; peak ${mb(peak)}; ` +
          `the main journal kept ${fullLength} after its flood and ${journaled.length} after theirs, the last sandbox's ${inSandbox.length}`,
      );

      expect(keyless.statuses[429]).toBeGreaterThan(9_000);
      expect(fullLength).toBeGreaterThan(1_000);
      for (const { refused } of sandboxes) expect(refused).toBeGreaterThan(2_000);
      expect(Array.isArray(journaled)).toBe(true);
      // Its 60 admitted uploads keep their 64 KiB each: with its refusals, more than the budget holds.
      expect(inSandbox.length).toBeGreaterThan(1_000);
      expect(inSandbox.filter((exchange) => exchange.status === 429).every((exchange) => exchange.requestBody === '')).toBe(true);
      expect(Math.max(afterKeyless, ...sandboxes.map(({ rss }) => rss), peak)).toBeLessThan(MOST_RSS_KB);
    },
    180_000,
  );
});
