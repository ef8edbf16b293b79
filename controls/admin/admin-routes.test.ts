/** The admin routes on their own, over controls made for the test. */
import { describe, expect, it } from 'vitest';
import { adminRoutes } from './admin-routes.ts';
import type { Controls } from '../controls.ts';
import { createFaults } from '../faults/faults.ts';

describe('GET /__admin/faults', () => {
  it('lists a fault injected in JavaScript with a RegExp path as the RegExp written between slashes, which JSON can carry', async () => {
    const faults = createFaults();
    faults.inject({ status: 503, path: /^\/v1\/pets$/ });
    const list = adminRoutes({ faults } as unknown as Controls).find((route) => route.path === '/faults')!.methods.GET!;
    const reply = await list({ request: new Request('http://localhost/__admin/faults'), body: async () => undefined, params: {} });
    expect(reply.status).toBe(200);
    expect(JSON.parse(JSON.stringify(reply.body))).toEqual([{ status: 503, path: '/^\\/v1\\/pets$/', id: 'fault-1', left: 1 }]);
  });
});
