// `node bench/log-lines.mjs`: CPU per access-log line, formatted and written through stdout to a file,
// with a few lines per event-loop turn as under load. Written by the command's lineWriter (a write
// every FLUSH_AFTER_MS) and, for comparison, by a write at the end of every turn (the batch before).
// Bundles cli/access-log.ts with esbuild (Node 20 cannot run TypeScript); each run is a child whose stdout is a file.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const LINES = 200_000;
const [role, strategy, perTurn] = process.argv.slice(2);
// Written beside the sources so the bundle resolves the project's node_modules (git ignores it).
const outfile = resolve('bench/.log-lines.bundle.mjs');

if (role === '--child') {
  const { accessLog, lineWriter } = await import(pathToFileURL(outfile).href);
  let pending = '';
  const perTurnWriter = (line) => {
    if (pending === '')
      setImmediate(() => {
        process.stdout.write(pending);
        pending = '';
      });
    pending += `${line}\n`;
  };
  const observe = accessLog('text', ['bench-enterprise-key'], strategy === 'turn' ? perTurnWriter : lineWriter(process.stdout));
  const request = { method: 'GET', url: 'http://127.0.0.1:4010/v1/pets?limit=20' };
  const started = process.cpuUsage();
  for (let i = 0; i < LINES; i += Number(perTurn)) {
    for (let j = 0; j < Number(perTurn); j++) observe({ request, status: 200, ms: 0.123, clientAddress: '127.0.0.1' });
    await new Promise((next) => setImmediate(next));
  }
  const { user, system } = process.cpuUsage(started);
  process.stderr.write(String((user + system) / LINES));
} else {
  const { build } = await import('esbuild');
  await build({ entryPoints: ['cli/access-log.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'error' });
  const directory = mkdtempSync(join(tmpdir(), 'petstore-log-lines-'));
  try {
    for (const lines of [1, 3]) {
      const cost = (kind) => {
        const fd = openSync(join(directory, `${kind}.log`), 'w');
        try {
          const child = spawnSync(process.execPath, [process.argv[1], '--child', kind, String(lines)], { stdio: ['ignore', fd, 'pipe'] });
          return Number(child.stderr.toString());
        } finally {
          closeSync(fd);
        }
      };
      console.log(`${lines} line(s) a turn: ${cost('turn').toFixed(2)} µs CPU a line written every turn, ${cost('timed').toFixed(2)} µs by lineWriter`);
    }
  } finally {
    rmSync(directory, { recursive: true });
  }
}
