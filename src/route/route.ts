/** Routing: which route of the table a path under the base path is, and which operation a method runs. */
import { ApiError } from '../response/api-error.ts';

/** What routing needs of a route: its path pattern and an entry per method it serves. */
interface Routable<Handler> {
  /** Path segments after the base path; a `{name}` segment captures a parameter. */
  readonly path: string;
  readonly methods: Readonly<Partial<Record<string, Handler>>>;
}

/** A route matched to a path, with its captured parameters. */
interface RouteMatch<R> {
  readonly route: R;
  readonly params: Record<string, string>;
}

/**
 * The route of `routes` serving `path` (already stripped of the base path), or `undefined`.
 *
 * @example
 * matchRoute([{ path: '/pets/{petId}', methods: {} }], '/pets/7'); // { route, params: { petId: '7' } }
 */
export function matchRoute<R extends Routable<unknown>>(routes: readonly R[], path: string): RouteMatch<R> | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    const pattern = patternOf(route);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i]!;
      if (!part.startsWith('{')) return part === segment;
      params[part.slice(1, -1)] = segment;
      return segment !== '';
    });
    if (matches) return { route, params };
  }
  return undefined;
}

/** Each route's path split once, not on every request (BENCHMARKS.md, HTTP: the GET row). */
const patterns = new WeakMap<Routable<unknown>, readonly string[]>();

function patternOf(route: Routable<unknown>): readonly string[] {
  let pattern = patterns.get(route);
  if (pattern === undefined) patterns.set(route, (pattern = route.path.split('/')));
  return pattern;
}

/** Methods a route answers, for `Allow`: HEAD with GET, and always OPTIONS. */
export function allowedMethods(route: Routable<unknown>): string {
  const methods = Object.keys(route.methods);
  if (route.methods.GET) methods.push('HEAD');
  return [...methods, 'OPTIONS'].join(', ');
}

/** What `method` runs on `route`: HEAD runs GET; anything unserved is a 405 with `Allow`. */
export function handlerFor<Handler>(route: Routable<Handler>, method: string): Handler {
  const name = method === 'HEAD' ? 'GET' : method;
  const handler = Object.hasOwn(route.methods, name) ? route.methods[name] : undefined;
  if (handler !== undefined) return handler;
  const allow = allowedMethods(route);
  throw new ApiError({ status: 405, code: 'method_not_allowed', message: `${method} is not allowed here; use ${allow}.`, headers: { Allow: allow } });
}
