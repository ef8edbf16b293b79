/** The one cut of a URL into path and query: for every URL a Request serializes, exactly what the URL parser says; for a raw target, what the client sent. */
import { describe, expect, it } from 'vitest';
import { pathAndQuery } from './path-and-query.ts';

describe('pathAndQuery', () => {
  it.each([
    'http://a/b?c#d',
    'http://a/',
    'http://a/v1/pets?limit=2&x=%20',
    'http://a/b#c?d',
    'http://a/b?',
    'http://a/p%C3%A9/x?q=a?b',
    'http://a:8/x/y?z',
    'http://a?b',
    'https://[::1]:8/v1/pets/7',
    'http://a/a b/../c',
  ])('cuts %s as the URL parser does, once a Request has serialized it', (input) => {
    const { url } = new Request(input);
    const { pathname, search } = new URL(url);
    expect(pathAndQuery(url)).toEqual({ path: pathname, query: search.slice(1) });
  });

  it('cuts a URL that does not parse, whose Host the edge refuses, without throwing', () => {
    expect(pathAndQuery('http://example.test:99999/v1/pets?limit=2')).toEqual({ path: '/v1/pets', query: 'limit=2' });
    expect(pathAndQuery('http://example.test:99999')).toEqual({ path: '/', query: '' });
  });

  it('keeps a raw target as the client sent it, its fragment left out', () => {
    expect(pathAndQuery('/v1/../__admin/requests?method=GET#top')).toEqual({ path: '/v1/../__admin/requests', query: 'method=GET' });
    expect(pathAndQuery('/v1/pets#frag?x')).toEqual({ path: '/v1/pets', query: '' });
    expect(pathAndQuery('*')).toEqual({ path: '*', query: '' });
  });

  it('reads no scheme in a query that holds a URL', () => {
    expect(pathAndQuery('/v1/pets?next=http://x/y')).toEqual({ path: '/v1/pets', query: 'next=http://x/y' });
  });
});
