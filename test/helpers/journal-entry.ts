/** One journal entry for the tests of controls/journal/: every field filled, so a test names only what it looks at. */
import type { RecordedExchange } from '../../controls/index.ts';

/**
 * An exchange as the journal records it: `GET` answered 200 at 2026-01-01, no query, headers or
 * bodies, but for what `fields` gives.
 *
 * @example
 * const exchange = (method: string, path: string, status: number) => journalEntry({ method, path, status });
 */
export function journalEntry(fields: Partial<RecordedExchange> & { readonly path: string }): RecordedExchange {
  return {
    method: 'GET',
    query: '',
    url: `http://x${fields.path}`,
    requestHeaders: {},
    requestBody: '',
    status: 200,
    responseHeaders: {},
    responseBody: '',
    ms: 0,
    time: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}
