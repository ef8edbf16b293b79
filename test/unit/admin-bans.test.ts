/** Wrong admin tokens, counted per caller address and banned on the store's clock: a second at first, doubling per ban up to banDurationMs. */
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { manualClock } from '../../controls/index.ts';

const TOKEN = 'admin-token-0123456789';
const ATTACKER = '203.0.113.9';
const NEIGHBOUR = '198.51.100.4';

/** A store with the admin API on a clock moved by hand, and an admin call from `clientAddress` with `token`. */
function adminStore() {
  const clock = manualClock('2026-06-01T12:00:00Z');
  const petstore = createPetStore({ admin: { token: TOKEN }, now: clock.now, banThreshold: 3, banDurationMs: 600_000, onError: () => {} });
  const call = (clientAddress: string, token: string) =>
    petstore.fetch(new Request('http://localhost/__admin/pets', { headers: { authorization: `Bearer ${token}` } }), { clientAddress });
  return { clock, call };
}

describe('wrong admin tokens', () => {
  it('ban the address for a second after more than banThreshold of them in a minute: a 429 with Retry-After and an Error body, the right token refused too', async () => {
    const { call } = adminStore();
    for (let i = 0; i < 3; i++) expect((await call(ATTACKER, `wrong-token-${i}-0123456789`)).status).toBe(401);
    const banned = await call(ATTACKER, 'wrong-token-3-0123456789');
    expect(banned.status).toBe(429);
    expect(banned.headers.get('retry-after')).toBe('1');
    expect(banned.headers.get('content-type')).toBe('application/json');
    expect(await banned.json()).toEqual({
      code: 'key_banned',
      message: 'Too many wrong admin tokens from this address; banned for 1 more second.',
      status: 429,
    });
    // Else the ban would only tell a guesser which token is right.
    const rightToken = await call(ATTACKER, TOKEN);
    expect(rightToken.status).toBe(429);
    expect(rightToken.headers.get('retry-after')).toBe('1');
  });

  it('ban for twice as long each time, up to banDurationMs, so guessing stays as slow as a long ban makes it', async () => {
    const { clock, call } = adminStore();
    const bans: string[] = [];
    for (let guess = 0; bans.length < 12; guess++) {
      const answer = await call(ATTACKER, `wrong-token-${guess}-0123456789`);
      if (answer.status !== 429) continue;
      const seconds = answer.headers.get('retry-after')!;
      bans.push(seconds);
      clock.advance(Number(seconds) * 1_000);
    }
    expect(bans).toEqual(['1', '2', '4', '8', '16', '32', '64', '128', '256', '512', '600', '600']);
  });

  it('leave another address with the right token unaffected', async () => {
    const { call } = adminStore();
    for (let i = 0; i < 5; i++) await call(ATTACKER, `wrong-token-${i}-0123456789`);
    expect((await call(ATTACKER, TOKEN)).status).toBe(429);
    const neighbour = await call(NEIGHBOUR, TOKEN);
    expect(neighbour.status).toBe(200);
    expect(await neighbour.json()).toEqual([]);
  });

  it('are forgiven when the ban ends on the store clock, and counted afresh in each minute', async () => {
    const { clock, call } = adminStore();
    for (let i = 0; i < 4; i++) await call(ATTACKER, `wrong-token-${i}-0123456789`);
    clock.advance(999);
    const late = await call(ATTACKER, TOKEN);
    expect([late.status, late.headers.get('retry-after')]).toEqual([429, '1']);
    clock.advance(1);
    expect((await call(ATTACKER, TOKEN)).status).toBe(200);
    // Three wrong tokens a minute stay within the threshold, minute after minute.
    clock.advance(60_000);
    for (let minute = 0; minute < 3; minute++, clock.advance(60_000)) {
      for (let i = 0; i < 3; i++) expect((await call(ATTACKER, `wrong-token-${i}-0123456789`)).status).toBe(401);
    }
    expect((await call(ATTACKER, TOKEN)).status).toBe(200);
  });

  it('are not counted without an Authorization header, which guesses nothing', async () => {
    const { call } = adminStore();
    const petstore = createPetStore({ admin: { token: TOKEN }, banThreshold: 0, onError: () => {} });
    for (let i = 0; i < 3; i++) expect((await petstore.fetch(new Request('http://localhost/__admin/pets'), { clientAddress: ATTACKER })).status).toBe(401);
    expect(
      (await petstore.fetch(new Request('http://localhost/__admin/pets', { headers: { authorization: `Bearer ${TOKEN}` } }), { clientAddress: ATTACKER }))
        .status,
    ).toBe(200);
    expect((await call(ATTACKER, TOKEN)).status).toBe(200);
  });
});
