/** The store's warnings in process: where they go (onError, else one stderr line), once per store, which calls are exempt, and the docs' list (issue #27). */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPetStore, PetStoreWarning, type PetStoreOptions } from '../../compose/index.ts';
import { WARNING_CODES } from '../../src/index.ts';
import { createTestPetStore } from '../../testing/index.ts';

const KEY = 'warnings-key-0123456789';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A store whose onError collects what it is told, and the codes of the warnings among it. */
function watched(options: PetStoreOptions = {}) {
  const seen: unknown[] = [];
  const petstore = createPetStore({ apiKeys: { [KEY]: 'free' }, ...options, onError: (error) => seen.push(error) });
  return { petstore, seen, told: () => seen.map((error) => (error instanceof PetStoreWarning ? error.code : error)) };
}

/** What console.warn prints while `run` runs, a line per call. */
async function stderrOf(run: () => Promise<unknown> | unknown): Promise<string[]> {
  const lines: string[] = [];
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  await run();
  return lines;
}

describe('where a warning goes', () => {
  it('without onError: one plain line on stderr with the code, once however many callers come', async () => {
    const lines = await stderrOf(async () => {
      const petstore = createPetStore({ apiKeys: { [KEY]: 'free' } });
      for (let i = 0; i < 3; i++) expect((await petstore.fetch(new Request('http://x/v1/pets'))).status).toBe(401);
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^petstore-service: warning PETSTORE_NO_CLIENT_ADDRESS: .*clientAddress/);
    expect(lines[0]).not.toContain('\n');
  });

  it('with onError: a PetStoreWarning (an Error with its code) goes there, and nothing to stderr', async () => {
    const lines = await stderrOf(async () => {
      const { petstore, seen } = watched();
      await petstore.fetch(new Request('http://x/v1/pets'));
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeInstanceOf(PetStoreWarning);
      expect(seen[0]).toMatchObject({ name: 'PetStoreWarning', code: 'PETSTORE_NO_CLIENT_ADDRESS' });
    });
    expect(lines).toEqual([]);
  });

  it('an onError that throws on the warning it is told changes no answer', async () => {
    let calls = 0;
    const petstore = createPetStore({
      onError: () => {
        calls++;
        throw new Error('broken hook');
      },
    });
    const response = await petstore.fetch(new Request('http://x/v1/pets'));
    expect(calls).toBe(1);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('is once per store, not once per process: a second store tells it again', async () => {
    const first = watched();
    const second = watched();
    await first.petstore.fetch(new Request('http://x/v1/pets'));
    await first.petstore.fetch(new Request('http://x/v1/pets'));
    await second.petstore.fetch(new Request('http://x/v1/pets'));
    expect([first.told(), second.told()]).toEqual([['PETSTORE_NO_CLIENT_ADDRESS'], ['PETSTORE_NO_CLIENT_ADDRESS']]);
  });
});

describe('calls that have no address to give', () => {
  it('petstore.fetch(url, init) is a call in process and is not told; petstore.fetch(request) with no context is', async () => {
    const { petstore, told } = watched();
    expect((await petstore.fetch('http://x/v1/pets')).status).toBe(401);
    expect((await petstore.fetch(new URL('http://x/v1/pets'), { method: 'GET' })).status).toBe(401);
    expect(told()).toEqual([]);
    expect((await petstore.fetch(new Request('http://x/v1/pets'))).status).toBe(401);
    expect(told()).toEqual(['PETSTORE_NO_CLIENT_ADDRESS']);
  });

  it('the test kit never tells a missing address (MSW hands it Requests), still tells the other mistakes, and a reset does not tell them again', async () => {
    const seen: unknown[] = [];
    const lines = await stderrOf(async () => {
      const petstore = createTestPetStore({ onError: (error) => seen.push(error) });
      expect((await petstore.fetch(new Request('http://x/v1/pets'))).status).toBe(401);
      expect((await petstore(new Request('http://x/v1/pets'))).status).toBe(401);
      expect(seen).toEqual([]);
      const unstripped = () => petstore.fetch(new Request('http://x/api/v1/pets', { headers: { authorization: `Bearer ${petstore.keys.pro}` } }));
      expect((await unstripped()).status).toBe(404);
      await petstore.reset();
      expect((await unstripped()).status).toBe(404);
    });
    expect(seen.map((error) => (error as PetStoreWarning).code)).toEqual(['PETSTORE_PREFIX_NOT_DECLARED']);
    expect(lines).toEqual([]);
  });
});

describe('the clientAddress option', () => {
  it('returning one IP address is told nothing; returning undefined (the header it reads is missing) is PETSTORE_NO_CLIENT_ADDRESS, naming the option', async () => {
    const { petstore, seen, told } = watched({ clientAddress: (request) => request.headers.get('x-real-ip') ?? undefined });
    await petstore.fetch(new Request('http://x/v1/pets', { headers: { 'x-real-ip': '2001:db8::7' } }));
    expect(seen).toEqual([]);
    await petstore.fetch(new Request('http://x/v1/pets'), { clientAddress: '192.0.2.1' });
    expect(told()).toEqual(['PETSTORE_NO_CLIENT_ADDRESS']);
    expect((seen[0] as Error).message).toMatch(/^The clientAddress option returned no address/);
  });

  it('returning a list or a name rather than one IP address: PETSTORE_CLIENT_ADDRESS_NOT_IP, without echoing it', async () => {
    const { petstore, seen, told } = watched({ clientAddress: (request) => request.headers.get('x-forwarded-for') ?? undefined });
    await petstore.fetch(new Request('http://x/v1/pets', { headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.2' } }));
    expect(told()).toEqual(['PETSTORE_CLIENT_ADDRESS_NOT_IP']);
    expect((seen[0] as Error).message).not.toContain('203.0.113.7');
  });
});

describe('publicUrl', () => {
  it("a bare origin in front of basePath /v1 is PETSTORE_PUBLIC_URL_PATH when the store is made, naming the fix; the base path's address, a proxied path or a root basePath are not", () => {
    const { told, seen } = watched({ publicUrl: 'https://api.example.com' });
    expect(told()).toEqual(['PETSTORE_PUBLIC_URL_PATH']);
    expect((seen[0] as Error).message).toContain('https://api.example.com/v1');
    for (const options of [
      { publicUrl: 'https://api.example.com/v1/' },
      { publicUrl: 'https://example.com/petstore' },
      { publicUrl: 'https://api.example.com', basePath: '' },
    ]) {
      expect(watched(options).seen).toEqual([]);
    }
  });
});

describe('docs/errors.md', () => {
  it('lists every warning code under "Warnings", each as a heading, and no other', () => {
    const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('\n## Warnings'));
    expect(page.indexOf('\n## Warnings')).toBeGreaterThan(0);
    const headings = [...section.matchAll(/^### `(PETSTORE_\w+)`$/gm)].map(([, code]) => code);
    expect(headings.sort()).toEqual([...WARNING_CODES].sort());
  });
});
