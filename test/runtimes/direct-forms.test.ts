/** The README's one-line forms on the real runtimes: Deno.serve(petstore) and Bun.serve({ fetch: petstore.fetch }) see each caller's address. */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bunBinary, denoBinary } from './processes.ts';

// Installed on first use (scripts/runtime.mjs): here, before any test's timeout starts.
const [deno, bun] = await Promise.all([denoBinary(), bunBinary()]);

/** Runs the probe; resolves to what it saw and everything it wrote to stderr. */
function probe(command: string, args: string[]): Promise<{ seen: unknown; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args, 'test/runtimes/direct-probe.mjs'], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve({ seen: JSON.parse(stdout.trimEnd().split('\n').at(-1)!), stderr });
    });
  });
}

describe('the one-line forms on real runtimes', () => {
  it('Deno.serve(petstore) gives 127.0.0.1 and 127.0.0.2 separate anonymous buckets, without warnings', async () => {
    const { seen, stderr } = await probe(deno, ['run', '--allow-net', '--allow-env', '--allow-read']);
    expect(seen).toEqual(['59', '58', '59']);
    // Deno warns whenever request.signal is read (legacy abort semantics); nothing of ours reads it.
    expect(stderr).toBe('');
  });

  it('Bun.serve({ fetch: petstore.fetch }) gives 127.0.0.1 and 127.0.0.2 separate anonymous buckets', async () => {
    const { seen, stderr } = await probe(bun, []);
    expect(seen).toEqual(['59', '58', '59']);
    expect(stderr).toBe('');
  });
});
