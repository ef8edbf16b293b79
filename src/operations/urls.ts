/** The one URL builder: every URL the API writes is its base plus a path of the API. */

/**
 * `base` (the `publicUrl`, or the base path under its mount prefix) followed by `path` and,
 * when given, the query. Never built from the request's Host, which the client chose.
 *
 * @example
 * apiUrl('/v1', '/pets/7'); // '/v1/pets/7'
 * apiUrl('https://api.example.com/v1', '/pets', new URLSearchParams({ cursor: 'cDE6Nw' })); // 'https://api.example.com/v1/pets?cursor=cDE6Nw'
 */
export function apiUrl(base: string, path: string, query?: URLSearchParams): string {
  return query === undefined ? `${base}${path}` : `${base}${path}?${query}`;
}
