/** GET /v1/pets/{petId} on a real server: deprecation headers, 404, 400, and 410 after sunset. */
import { describe, expect, it } from 'vitest';
import { expectError, postPet, startServer } from '../helpers/server.ts';
import { manualClock } from '../../testing/index.ts';

const SUNSET = Date.parse('2030-12-05T00:00:00Z');

function expectDeprecationHeaders(response: Response) {
  expect(response.headers.get('deprecation')).toBe('@1767225600');
  expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  expect(response.headers.get('link')).toBe('</v1/pets>; rel="successor-version"');
}

describe('GET /v1/pets/{petId} (deprecated)', () => {
  it('returns the pet with Deprecation, Sunset and a successor-version Link', async () => {
    const server = await startServer();
    await postPet(server, { name: 'Rex', categoryId: 2, status: 'sold' });
    const response = await server.api('/pets/1');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 1, name: 'Rex', categoryId: 2, status: 'sold' });
    expectDeprecationHeaders(response);
  });

  it('answers 404 not_found for an id that does not exist, still with the deprecation headers', async () => {
    const server = await startServer();
    const response = await server.api('/pets/42');
    expectDeprecationHeaders(response);
    await expectError(response, 404, 'not_found');
  });

  it.each(['abc', '0', '-1', '1.5', '1e3', '%20', '99999999999999999'])('rejects petId "%s" with 400 invalid_request naming petId', async (petId) => {
    const server = await startServer();
    const body = await expectError(await server.api(`/pets/${petId}`), 400, 'invalid_request');
    expect(body.details?.[0]?.field).toBe('petId');
  });

  it('uses the getPetDeprecatedAt option for the Deprecation header', async () => {
    const server = await startServer({ getPetDeprecatedAt: new Date('2027-03-01T12:00:00Z') });
    expect((await server.api('/pets/1')).headers.get('deprecation')).toBe('@1803902400');
  });

  it('still answers one millisecond before the sunset instant', async () => {
    const server = await startServer({ now: () => SUNSET - 1 });
    await postPet(server, { name: 'Rex', categoryId: 2 });
    expect((await server.api('/pets/1')).status).toBe(200);
  });

  it('answers 410 gone from the sunset instant on, by the configured clock', async () => {
    const clock = manualClock(SUNSET);
    const server = await startServer({ now: clock.now });
    await postPet(server, { name: 'Rex', categoryId: 2 });
    for (const time of [SUNSET, SUNSET + 365 * 86_400_000]) {
      clock.set(time);
      const response = await server.api('/pets/1');
      expectDeprecationHeaders(response);
      const body = await expectError(response, 410, 'gone');
      expect(body.message).toContain('GET /pets');
    }
  });
});
