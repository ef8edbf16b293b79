/** The path and query of a request's URL, cut by hand: the one cut the journal, the access log and telemetry make of it. */

/** The scheme and authority in front of a URL's path (`http://example.test:99999`); none in an origin-form target (`/v1/pets`). */
const ORIGIN = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i;

/**
 * The path and query (without `?`, `''` for none) of `url`, its fragment left out. Cut, not
 * parsed: a parse per access-log line cost more than the line's write, and a Request's URL is made
 * from the client's Host (`example.test:99999`), which the edge answers with a 400 that reading the
 * URL here must not turn into a 500. For a URL a Request serialized, the parts are the URL
 * parser's `pathname` and `search`; a raw target (the direct node:http path) keeps its dot
 * segments and its spelling, as the client sent them.
 *
 * @example
 * pathAndQuery('http://example.test:99999/v1/pets?limit=2'); // { path: '/v1/pets', query: 'limit=2' }
 * pathAndQuery('/v1/pets#top'); // { path: '/v1/pets', query: '' }
 */
export function pathAndQuery(url: string): { path: string; query: string } {
  const origin = url.charCodeAt(0) === 47 /* '/' */ ? '' : (ORIGIN.exec(url)?.[0] ?? '');
  const hash = url.indexOf('#', origin.length);
  const end = hash === -1 ? url.length : hash;
  const question = url.indexOf('?', origin.length);
  const pathEnd = question === -1 || question > end ? end : question;
  return {
    path: pathEnd === origin.length ? '/' : url.slice(origin.length, pathEnd),
    query: pathEnd === end ? '' : url.slice(pathEnd + 1, end),
  };
}
