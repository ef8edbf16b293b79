/** Routing on its own: which route a path is, its parameters, and the 405 for a method it does not serve. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../response/api-error.ts';
import { allowedMethods, handlerFor, matchRoute } from './route.ts';

const routes = [
  { path: '/pets', methods: { GET: 'list', POST: 'create' } },
  { path: '/pets/{petId}', methods: { GET: 'get' } },
  { path: '', methods: { GET: 'root' } },
];

describe('matchRoute', () => {
  it('matches a literal path and captures a {name} segment as a raw string', () => {
    expect(matchRoute(routes, '/pets')).toEqual({ route: routes[0], params: {} });
    expect(matchRoute(routes, '/pets/007')).toEqual({ route: routes[1], params: { petId: '007' } });
    expect(matchRoute(routes, '')?.route).toBe(routes[2]);
  });

  it('matches no route for an empty parameter, an extra segment, a trailing slash or another case', () => {
    for (const path of ['/pets/', '/pets/7/x', '/pets//', '/Pets', '/pet']) expect(matchRoute(routes, path)).toBeUndefined();
  });
});

describe('handlerFor and allowedMethods', () => {
  it('runs GET for HEAD and lists HEAD and OPTIONS beside the methods a route declares', () => {
    expect(handlerFor(routes[1]!, 'HEAD')).toBe('get');
    expect(allowedMethods(routes[0]!)).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('throws a 405 with Allow for a method the route does not serve, inherited names included', () => {
    for (const method of ['DELETE', 'POST', 'toString', 'constructor']) {
      let error: unknown;
      try {
        handlerFor(routes[1]!, method);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 405, code: 'method_not_allowed', headers: { Allow: 'GET, HEAD, OPTIONS' } });
    }
  });
});
