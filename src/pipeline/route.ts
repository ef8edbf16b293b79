/** Routing: which route a path under the base path is, and which operation a method runs. */
import { ApiError } from '../errors.ts';
import type { ResolvedOptions } from '../options.ts';
import { createPet } from '../routes/create-pet.ts';
import { deprecationHeaders, getPet } from '../routes/get-pet.ts';
import { listPets } from '../routes/list-pets.ts';
import { openApiOperation } from '../routes/openapi.ts';
import type { Operation, Route } from '../routes/types.ts';

/** A route matched to a path, with its captured parameters. */
export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
}

/** The API's routes for the given options. */
export function createRoutes(options: ResolvedOptions): Route[] {
  return [
    { path: '/pets', methods: { GET: listPets, POST: createPet } },
    { path: '/pets/{petId}', methods: { GET: getPet }, headers: deprecationHeaders(options) },
    { path: '/openapi.json', methods: { GET: openApiOperation() }, public: true },
  ];
}

/** The route serving `path` (already stripped of the base path), or `undefined`. */
export function matchRoute(routes: readonly Route[], path: string): RouteMatch | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    const pattern = route.path.split('/');
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

/** Methods a route answers, for `Allow`: HEAD with GET, and always OPTIONS. */
export function allowedMethods(route: Route): string {
  const methods = Object.keys(route.methods);
  if (route.methods.GET) methods.push('HEAD');
  return [...methods, 'OPTIONS'].join(', ');
}

/** The operation for `method` on `route`: HEAD runs GET; anything unserved is a 405. */
export function operationFor(route: Route, method: string): Operation {
  const name = method === 'HEAD' ? 'GET' : method;
  if (Object.hasOwn(route.methods, name)) return route.methods[name as keyof Route['methods']]!;
  throw new ApiError(405, 'method_not_allowed', `${method} is not allowed here; use ${allowedMethods(route)}.`, undefined, {
    Allow: allowedMethods(route),
  });
}
