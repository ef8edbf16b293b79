/** A sandbox's id and keys: their shape, which names the sandbox and lets any text holding one be redacted, and the id read back from a key, or none. */
import { describe, expect, it } from 'vitest';
import { newSandboxId, newSandboxKeys, newSandboxSelector, SANDBOX_PLANS, SANDBOX_SELECTOR_PATTERN, sandboxIdOf } from './sandbox-keys.ts';

describe('newSandboxId and newSandboxKeys', () => {
  it('make a 12-character id of lower-case letters and digits, a new one each time', () => {
    const ids = Array.from({ length: 20 }, newSandboxId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{12}$/);
    expect(new Set(ids).size).toBe(20);
  });

  it('make one key per plan, psbx_, the id, the plan and 32 random characters, each naming the sandbox', () => {
    const id = newSandboxId();
    const keys = newSandboxKeys(id);
    expect(Object.keys(keys)).toEqual([...SANDBOX_PLANS]);
    for (const plan of SANDBOX_PLANS) {
      expect(keys[plan]).toMatch(new RegExp(`^psbx_${id}_${plan}_[A-Za-z0-9_-]{32}$`));
      expect(sandboxIdOf(keys[plan])).toBe(id);
    }
    expect(new Set(Object.values(keys)).size).toBe(3);
    // 192 random bits: over many keys every character of the alphabet turns up.
    const secrets = Array.from({ length: 40 }, () => newSandboxKeys(id).free.slice(-32)).join('');
    expect(new Set(secrets).size).toBe(64);
  });
});

describe('sandboxIdOf', () => {
  it('names no sandbox for no key, a configured key, or a text that starts as a sandbox key but is not one', () => {
    expect(sandboxIdOf(undefined)).toBeUndefined();
    expect(sandboxIdOf('my-configured-key-0123')).toBeUndefined();
    expect(sandboxIdOf('psbx_short')).toBeUndefined();
    expect(sandboxIdOf(`psbx_0123456789ab_gold_${'x'.repeat(32)}`)).toBeUndefined();
  });
});

describe('newSandboxSelector', () => {
  it('makes pssel_ and 32 random base64url characters (192 bits), a new one each time, which SANDBOX_SELECTOR_PATTERN finds in a text', () => {
    const selectors = Array.from({ length: 40 }, newSandboxSelector);
    for (const selector of selectors) {
      expect(selector).toMatch(/^pssel_[A-Za-z0-9_-]{32}$/);
      expect(`baggage: petstore.sandbox=${selector};x=1`.match(SANDBOX_SELECTOR_PATTERN)).toEqual([selector]);
    }
    expect(new Set(selectors).size).toBe(40);
    expect(new Set(selectors.map((selector) => selector.slice(6)).join('')).size).toBe(64);
  });
});
