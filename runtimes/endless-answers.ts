/** The answers with no end of their own (the admin API's event stream) a Deno or Bun server is serving, so that closing it ends them instead of waiting for them forever. */
import { isEndless } from '../src/index.ts';

/**
 * The endless answers of one server: each passed {@link EndlessAnswers.through} a pipe that
 * {@link EndlessAnswers.endAll} closes. Deno's `shutdown()` and Bun's `stop()` wait for every answer
 * in flight; node:http's close has its own way (hosts/node/listener.ts).
 *
 * @example
 * const answers = endlessAnswers();
 * const server = Deno.serve((request) => petstore(request).then(answers.through));
 * const close = () => { const stopped = server.shutdown(); answers.endAll(); return stopped; };
 */
export interface EndlessAnswers {
  /** `response` as it is, or, when it is endless, the same answer through a pipe `endAll` can close. */
  through(response: Response): Response;
  /** Ends every endless answer still open: its reader sees the end of the stream, its source is cancelled. */
  endAll(): void;
}

/**
 * A new set of {@link EndlessAnswers}, none open.
 *
 * @example
 * const answers = endlessAnswers();
 */
export function endlessAnswers(): EndlessAnswers {
  const open = new Set<AbortController>();
  return {
    through(response) {
      if (!isEndless(response) || response.body === null) return response;
      const cut = new AbortController();
      open.add(cut);
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      // Cut by endAll: the source is cancelled and the answer ends as a stream ends, not with an error.
      response.body
        .pipeTo(writable, { signal: cut.signal, preventAbort: true })
        .catch(() => writable.close())
        .catch(() => {})
        .finally(() => open.delete(cut));
      return new Response(readable, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    endAll() {
      for (const cut of open) cut.abort();
    },
  };
}
