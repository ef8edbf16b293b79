/** The command (built) prints no configured API key: not on start, not while serving, not on shutdown (the handler's answers and logs: test/http/secrets.test.ts). */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

const KEYS = ['alpha-Secret-Key-0001', 'beta-Secret-Key-0002'];
const PRESENTED = [...KEYS, `${KEYS[0]}x`, KEYS[1]!.slice(0, -1), KEYS[0]!.toUpperCase(), `${KEYS[0]} ${KEYS[1]}`];
const leaks = (text: string) => KEYS.filter((key) => text.includes(key) || text.includes(encodeURIComponent(key)));

describe('secrets', () => {
  it('the command prints no configured key on start, while serving, or on shutdown', async () => {
    const child = spawn(process.execPath, ['dist/cli/index.js'], {
      env: { ...process.env, PORT: '0', PETSTORE_API_KEYS: `${KEYS[0]}:free,${KEYS[1]}:pro` },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // A safety net: a node process starting on a busy machine can take seconds.
    const url = await vi.waitFor(() => /listening on (\S+)\n/.exec(output)![1]!, { timeout: 30_000 });
    for (const key of PRESENTED) await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(output).toContain('Using 2 API key(s)');
    expect(leaks(output)).toEqual([]);
  }, 60_000);
});
