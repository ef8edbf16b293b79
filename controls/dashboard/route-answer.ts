/** The answer of one of the dashboard's routes (its page's files, the event stream), which answer with a Response of their own rather than a Reply. */
import { allowedMethods, handlerFor, reasonPhrase, type Host } from '../../src/index.ts';

/** A handler of the dashboard's: a Response for a request. */
type Answering = (request: Request, host: Host) => Response;

/**
 * `route`'s answer to `request`: a 204 with `Allow` for OPTIONS, else what its method's handler
 * answers (HEAD runs GET; any other method throws the 405 ApiError with `Allow`).
 *
 * @example
 * return answerOn({ path: '/requests/events', methods: { GET: stream } }, request, host);
 */
export function answerOn(
  route: { readonly path: string; readonly methods: Readonly<Partial<Record<string, Answering>>> },
  request: Request,
  host: Host,
): Response {
  const { ResponseClass = Response } = host;
  if (request.method === 'OPTIONS') return new ResponseClass(null, { status: 204, statusText: reasonPhrase(204), headers: { Allow: allowedMethods(route) } });
  return handlerFor(route, request.method)(request, host);
}
