/** The strict checker: it passes an answer its document declares and names what differs in one it does not. */
import { describe, expect, it } from 'vitest';
import { createStrictChecker, type SeenAnswer } from './strict-checker.ts';

const error = {
  type: 'object',
  required: ['code', 'message', 'status'],
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
};
const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
/** A small document: GET /things/{id} with a quota header, and a shared 404. */
const document = {
  openapi: '3.1.0',
  info: { title: 'Things', version: '1' },
  servers: [{ url: '/api' }],
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          200: {
            description: 'A thing.',
            headers: { 'X-Left': { required: true, schema: { type: 'integer', minimum: 0 } }, Link: { required: false, schema: { type: 'string' } } },
            content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } } },
          },
          '5XX': { description: 'Failed.', content: errorContent },
        },
      },
    },
  },
  components: { schemas: { Error: error }, responses: { NotFound: { description: 'No such path.', content: errorContent } } },
};

const answer = (overrides: Partial<Omit<SeenAnswer, 'headers'>> & { headers?: Record<string, string> } = {}): SeenAnswer => ({
  method: 'GET',
  target: '/api/things/1',
  status: 200,
  body: '{"id":1}',
  ...overrides,
  headers: new Headers(overrides.headers ?? { 'content-type': 'application/json', 'x-left': '4' }),
});
const check = createStrictChecker(document);

describe('the strict checker', () => {
  it('passes a declared answer, a status its class declares, and an unknown path answered with the shared 404', () => {
    expect(check(answer())).toEqual([]);
    expect(check(answer({ status: 503, headers: { 'content-type': 'application/json' }, body: '{"code":"down","message":"x","status":503}' }))).toEqual([]);
    const notFound = {
      target: '/api/nowhere',
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: '{"code":"not_found","message":"x","status":404}',
    };
    expect(check(answer(notFound))).toEqual([]);
  });

  it.each<[string, Parameters<typeof answer>[0], RegExp]>([
    ['a status the operation does not declare', { status: 404, body: '{"code":"not_found","message":"x","status":404}' }, /status 404 is not declared for GET/],
    ['HEAD where only GET is declared', { method: 'HEAD', body: '' }, /HEAD \/things\/\{id\} is answered but no operation describes it/],
    [
      'a 405 no operation of the path declares',
      { method: 'PUT', status: 405, body: '{"code":"x","message":"x","status":405}' },
      /none of its operations declares 405/,
    ],
    ['a required header missing', { headers: { 'content-type': 'application/json' } }, /missing required header X-Left/],
    ['a header value its schema refuses', { headers: { 'content-type': 'application/json', 'x-left': '-1' } }, /header X-Left: "-1"/],
    [
      'a header the document does not declare',
      { headers: { 'content-type': 'application/json', 'x-left': '4', 'x-powered-by': 'me' } },
      /header x-powered-by is not declared/,
    ],
    ['another media type', { headers: { 'content-type': 'text/html', 'x-left': '4' }, body: '<p>' }, /media type text\/html is not declared/],
    ['a body its schema refuses', { body: '{"id":"one"}' }, /body data\/id must be integer/],
    [
      'an Error whose status differs',
      { status: 500, headers: { 'content-type': 'application/json' }, body: '{"code":"x","message":"x","status":502}' },
      /Error body says status 502/,
    ],
  ])('names %s', (_, overrides, problem) => {
    expect(check(answer(overrides)).join('\n')).toMatch(problem);
  });
});
