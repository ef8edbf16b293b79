/** The README's one-line forms on the real runtimes: Deno.serve(petstore) and Bun.serve({ fetch: petstore.fetch }) see each caller's address. */
import { describe, expect, it } from 'vitest';
import { devBinary, runJsonProcess } from './processes.ts';

describe('the one-line forms on real runtimes', () => {
  it('Deno.serve(petstore) gives 127.0.0.1 and 127.0.0.2 separate anonymous buckets', async () => {
    const seen = await runJsonProcess(devBinary('deno'), ['run', '--allow-net', '--allow-env', '--allow-read', 'test/runtimes/direct-probe.mjs'], {});
    expect(seen).toEqual(['59', '58', '59']);
  });

  it('Bun.serve({ fetch: petstore.fetch }) gives 127.0.0.1 and 127.0.0.2 separate anonymous buckets', async () => {
    const seen = await runJsonProcess(devBinary('bun'), ['test/runtimes/direct-probe.mjs'], {});
    expect(seen).toEqual(['59', '58', '59']);
  });
});
