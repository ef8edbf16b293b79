/** The access log: its writer sends lines in batches, by time or by size, and loses none on exit; its line never holds a key, nor a field or line a client wrote. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accessLog, FLUSH_AFTER_MS, FLUSH_AT_CHARS, lineWriter } from './access-log.ts';

/** A sink that records each write. */
function recorder() {
  const writes: string[] = [];
  return { writes, sink: { write: (text: string) => writes.push(text) } };
}

describe('the access log writer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes lines from many event-loop turns in one write once the first has waited 50 ms', async () => {
    const { writes, sink } = recorder();
    const write = lineWriter(sink);
    for (let turn = 0; turn < 5; turn++) {
      write(`GET /v1/pets 200 0.1ms 127.0.0.${turn}`);
      await vi.advanceTimersByTimeAsync(FLUSH_AFTER_MS / 10);
    }
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(FLUSH_AFTER_MS);
    expect(writes).toEqual([[0, 1, 2, 3, 4].map((n) => `GET /v1/pets 200 0.1ms 127.0.0.${n}\n`).join('')]);
  });

  it('writes at once when 64 KiB of lines wait, without waiting for the time', () => {
    const { writes, sink } = recorder();
    const write = lineWriter(sink);
    const line = 'x'.repeat(1023);
    for (let i = 0; i < FLUSH_AT_CHARS / 1024; i++) write(line);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(FLUSH_AT_CHARS);
  });

  it('writes the lines still waiting when the process exits', () => {
    const { writes, sink } = recorder();
    const write = lineWriter(sink);
    write('POST /v1/pets 201 0.4ms -');
    // The writer's own exit listener, as the process calls it (emitting 'exit' would run the runner's too).
    (process.listeners('exit').at(-1) as () => void)();
    expect(writes).toEqual(['POST /v1/pets 201 0.4ms -\n']);
  });
});

describe('the access log line', () => {
  /** The text line `accessLog` writes for a GET of `url` with these keys configured. */
  function lineFor(keys: string[], url: string): string {
    const lines: string[] = [];
    accessLog('text', keys, (line) => lines.push(line))({
      request: new Request(url),
      status: 200,
      ms: 1,
      clientAddress: '127.0.0.1',
    });
    return lines[0]!;
  }

  it('redacts a short key in a path shorter than a longer key, typed or percent-encoded', () => {
    const keys = ['a-much-longer-key-of-the-business-plan', 'short-k1'];
    expect(lineFor(keys, 'http://localhost/v1/pets/short-k1')).toBe('GET /v1/pets/[redacted] 200 1.0ms 127.0.0.1');
    expect(lineFor(keys, 'http://localhost/?k=%73hort-k1')).toBe('GET /?k=[redacted] 200 1.0ms 127.0.0.1');
  });

  it('redacts a sandbox key by its shape, with no list of sandboxes, typed or percent-encoded', () => {
    const sandboxKey = `psbx_0123456789ab_pro_${'x'.repeat(32)}`;
    expect(lineFor(['a-key-of-twenty-chars'], `http://localhost/v1/pets?key=${sandboxKey}`)).toBe('GET /v1/pets?key=[redacted] 200 1.0ms 127.0.0.1');
    expect(lineFor([], `http://localhost/v1/pets?key=%70${sandboxKey.slice(1)}`)).toBe('GET /v1/pets?key=[redacted] 200 1.0ms 127.0.0.1');
  });

  it('redacts a key percent-encoded twice, JSON-escaped, in capitals or inside base64', () => {
    const keys = ['a-key-of-twenty-chars'];
    const twice = [...keys[0]!].map((c) => `%25${c.charCodeAt(0).toString(16)}`).join('');
    for (const spelling of [twice, '\\u0061-key-of-twenty-chars', keys[0]!.toUpperCase(), btoa(`user:${keys[0]}`)]) {
      expect(lineFor(keys, `http://localhost/v1/pets?key=${spelling}`)).toBe('GET /v1/pets?key=[redacted] 200 1.0ms 127.0.0.1');
    }
  });

  it('writes a path shorter than every key as it came', () => {
    expect(lineFor(['a-key-of-twenty-chars'], 'http://localhost/v1/pets?limit=2')).toBe('GET /v1/pets?limit=2 200 1.0ms 127.0.0.1');
  });

  it('escapes what a client may have written, so a caller, method or path cannot add fields or lines to the text line', () => {
    const lines: string[] = [];
    const observe = accessLog('text', [], (line) => lines.push(line));
    // A host's view of the request, as the direct node:http path hands it: its URL as the request line had it.
    const url = 'http://localhost/v1/pets?a=\u00e9\u2028b';
    const request = { method: 'GET', url, headers: new Headers(), body: null, toRequest: () => new Request(url) };
    observe({ request, status: 401, ms: 1, clientAddress: '203.0.113.5 (admin login ok)\nGET /v1/secret 200' });
    expect(lines).toEqual(['GET /v1/pets?a=%C3%A9%E2%80%A8b 401 1.0ms 203.0.113.5%20(admin%20login%20ok)%0AGET%20/v1/secret%20200']);
  });

  it('writes an address as it is, IPv6 and zone included', () => {
    const lines: string[] = [];
    const observe = accessLog('text', [], (line) => lines.push(line));
    observe({ request: new Request('http://localhost/v1/pets'), status: 200, ms: 1, clientAddress: 'fe80::1%eth0' });
    expect(lines).toEqual(['GET /v1/pets 200 1.0ms fe80::1%eth0']);
  });

  const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

  it('gives a JSON line the trace id as "trace" when the request has one, and leaves it out when it has none', () => {
    const lines: string[] = [];
    const observe = accessLog('json', [], (line) => lines.push(line));
    const request = new Request('http://localhost/v1/pets');
    observe({ request, status: 200, ms: 1, clientAddress: '127.0.0.1', traceId: TRACE });
    observe({ request, status: 200, ms: 1, clientAddress: '127.0.0.1', traceId: undefined });
    observe({ request, status: 200, ms: 1, clientAddress: '127.0.0.1' });
    const [traced, ...untraced] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(traced).toMatchObject({ method: 'GET', path: '/v1/pets', status: 200, caller: '127.0.0.1', trace: TRACE });
    for (const line of untraced) expect(Object.keys(line)).toEqual(['time', 'method', 'path', 'status', 'ms', 'caller']);
  });

  it('writes a text line the same with a trace id or without', () => {
    const lines: string[] = [];
    const observe = accessLog('text', [], (line) => lines.push(line));
    observe({ request: new Request('http://localhost/v1/pets'), status: 200, ms: 1, clientAddress: '127.0.0.1', traceId: TRACE });
    expect(lines).toEqual(['GET /v1/pets 200 1.0ms 127.0.0.1']);
  });
});
