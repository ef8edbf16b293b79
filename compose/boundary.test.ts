/** Both ways out of the boundary (a Response, and the direct node:http path's reply) tell their watchers one record of each answer, made in one place. */
import { describe, expect, it } from 'vitest';
import { createAnswer, handleOf, resolveOptions, type Answered, type Host } from '../src/index.ts';
import { watchedAnswer, withBoundary } from './boundary.ts';

const KEY = 'boundary-key-0123456789';
const config = resolveOptions({ apiKeys: { [KEY]: 'free' }, clientAddress: () => '203.0.113.7' });
const MOUNTED: Host = { mountPath: '/api', mountStripped: true };

/** What a watcher reads of a record, the time left out. */
const read = ({ request, path, status, notes, clientAddress, traceId }: Answered) => ({
  method: request.method,
  url: request.url,
  path,
  status,
  notes,
  clientAddress,
  traceId,
});

describe('the boundary', () => {
  it('tells the observer the same record on both ways out, its path redacted and put back under the mount', async () => {
    const seen: ReturnType<typeof read>[] = [];
    const observe = (answered: Answered) => void seen.push(read(answered));
    const api = createAnswer(config);
    const url = `http://localhost/v1/pets/${KEY}?limit=2`;
    const response = await withBoundary(handleOf(api), config, observe)(new Request(url), MOUNTED);
    const reply = await watchedAnswer(api, config, observe)(new Request(url), MOUNTED);
    expect(reply.status).toBe(response.status);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/api/v1/pets/[redacted]', status: response.status, clientAddress: '203.0.113.7', notes: {} });
  });

  it('tells onResponse first, with the Response and the same time and address the observer gets', async () => {
    const told: string[] = [];
    let answeredMs = -1;
    const hooked = resolveOptions({
      apiKeys: { [KEY]: 'free' },
      clientAddress: () => '203.0.113.7',
      onResponse: ({ response, ms, clientAddress }) => {
        answeredMs = ms;
        told.push(`onResponse ${response.status} ${clientAddress}`);
      },
    });
    const observe = ({ status, ms, clientAddress }: Answered) => {
      expect(ms).toBe(answeredMs);
      told.push(`observe ${status} ${clientAddress}`);
    };
    await withBoundary(handleOf(createAnswer(hooked)), hooked, observe)(new Request('http://localhost/healthz'), {});
    expect(told).toEqual(['onResponse 200 203.0.113.7', 'observe 200 203.0.113.7']);
  });

  it('leaves the direct path as it is when nothing watches it', () => {
    const api = createAnswer(config);
    expect(watchedAnswer(api, config, undefined)).toBe(api);
  });
});
