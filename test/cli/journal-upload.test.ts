/**
 * The command (built) with the admin API on, met by a 50 MB chunked upload without a key: the
 * journal reads none of a refused body, so the API's answer leaves before the upload ends and the
 * server's memory stays put. Linux only: the memory is read from /proc.
 */
import { writeFileSync } from 'node:fs';
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runCli, listening, statusKb } from '../helpers/cli.ts';

const TOKEN = 'upload-admin-token-0123';
const UPLOAD_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');
/** How much the server may grow by while the upload comes: the whole upload held would be 50 MB and more. */
const MOST_GROWTH_KB = 40 * 1024;

/** Starts the peak over from now, where the kernel allows it (Linux 4.0+, our own process). */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Without it the samples taken while sending still bound the growth.
  }
}

/** What the client saw: the answer, and how much of the upload it had handed over when the answer had fully come. */
interface Upload {
  readonly status: number;
  readonly body: string;
  readonly sentWhenAnswered: number;
  readonly ms: number;
  /** The server's RSS at each pause of the upload (kB). */
  readonly samples: number[];
}

/**
 * POSTs `total` bytes of a chunked body to `url`, a chunk at a time as the socket takes it (never
 * held whole), and stops sending once the answer has come. The request is destroyed then: errors
 * the server's early answer or close causes on the client are expected, not thrown. Sent on a
 * keep-alive connection: with `Connection: close` the server closes as soon as it has answered,
 * and a close with the upload still arriving is a TCP reset, which may discard the answer before
 * the client reads it.
 */
function upload(url: string, total: number, pid: number): Promise<Upload> {
  const started = performance.now();
  const samples: number[] = [];
  let sent = 0;
  let answered = false;
  return new Promise((resolve, reject) => {
    const agent = new Agent({ keepAlive: true });
    const req: ClientRequest = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } });
    const pump = () => {
      while (!answered && sent < total) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) {
          samples.push(statusKb(pid, 'VmRSS'));
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.on('response', (response: IncomingMessage) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('error', () => {});
      response.on('end', () => {
        answered = true;
        resolve({ status: response.statusCode!, body, sentWhenAnswered: sent, ms: performance.now() - started, samples });
        req.destroy();
        agent.destroy();
      });
    });
    pump();
  });
}

describe('petstore-service --admin-token met by a 50 MB upload without a key', () => {
  it.skipIf(process.platform !== 'linux')(
    'answers it with its JSON error before the upload ends, journals none of it, and grows by under 40 MB',
    async () => {
      const cli = runCli(['--port', '0', '--quiet', '--admin-token', TOKEN]);
      const url = await listening(cli);
      const pid = cli.child.pid!;
      const admin = { headers: { authorization: `Bearer ${TOKEN}` } };
      // Warm: the paths this request takes are loaded and compiled before the baseline.
      const small = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' };
      expect((await fetch(`${url}/pets`, small)).status).toBe(401);
      expect((await fetch(`${new URL(url).origin}/__admin/requests`, { method: 'DELETE', ...admin })).status).toBe(204);
      const before = statusKb(pid, 'VmRSS');
      resetPeak(pid);

      const answer = await upload(`${url}/pets`, UPLOAD_BYTES, pid);
      const peak = Math.max(statusKb(pid, 'VmHWM'), statusKb(pid, 'VmRSS'), ...answer.samples);

      expect(answer.status === 401 || answer.status === 413).toBe(true);
      expect(JSON.parse(answer.body)).toMatchObject({ status: answer.status, code: answer.status === 401 ? 'unauthorized' : 'payload_too_large' });
      expect(answer.sentWhenAnswered).toBeLessThan(UPLOAD_BYTES);
      const growthKb = peak - before;
      console.log(
        `50 MB upload: answered ${answer.status} after ${answer.ms.toFixed(0)} ms with ${(answer.sentWhenAnswered / 1024 / 1024).toFixed(1)} MB ` +
          `handed to the socket; server RSS ${(before / 1024).toFixed(1)} MB before, peak ${(peak / 1024).toFixed(1)} MB (+${(growthKb / 1024).toFixed(1)} MB)`,
      );
      expect(growthKb).toBeLessThan(MOST_GROWTH_KB);

      const [journaled, ...others] = await (await fetch(`${new URL(url).origin}/__admin/requests`, admin)).json();
      expect(others).toEqual([]);
      expect(journaled).toMatchObject({ method: 'POST', status: answer.status, requestBodyTruncated: true });
      expect(journaled.requestBody).toBe('');
    },
    60_000,
  );
});
