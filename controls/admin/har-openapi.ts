/** The HAR's part of the admin document: `GET /__admin/requests.har`, the download header it sends, and the schemas of the HAR 1.2 it writes (journal/journal-har.ts). */
import { headerObject, type OpenApiObject, pattern, ref } from '../../src/index.ts';
import { getAndHead, options } from './admin-openapi-parts.ts';

const NAME_AND_VALUE = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' } } };
const PAIRS = { type: 'array', items: ref('schemas', 'HarPair') };
const FLAG = { const: true };
const UNKNOWN_SIZE = { type: 'integer', minimum: -1, description: '-1: unknown.' };
const MS = { type: 'number', minimum: 0 };

const HAR_REQUEST = {
  type: 'object',
  required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
  properties: {
    method: { type: 'string' },
    url: { type: 'string', description: 'Absolute, as the journal keeps it.' },
    httpVersion: { type: 'string' },
    cookies: PAIRS,
    headers: { ...PAIRS, description: 'Lower-case names; authorization keeps its scheme only (Bearer [redacted]).' },
    queryString: { ...PAIRS, description: 'The query\u2019s parameters, decoded.' },
    postData: {
      type: 'object',
      required: ['mimeType', 'text'],
      description: 'The body the journal kept: none without one, or for a 401, 413, 415 or 429, whose body is never read.',
      properties: { mimeType: { type: 'string' }, text: { type: 'string' }, _truncated: { ...FLAG, description: 'The body went on past text.' } },
    },
    headersSize: UNKNOWN_SIZE,
    bodySize: { ...UNKNOWN_SIZE, description: '0 without a body, else -1: unknown.' },
    _headersTruncated: { ...FLAG, description: 'The journal left headers out or cut values.' },
  },
};

const HAR_RESPONSE = {
  type: 'object',
  required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
  properties: {
    status: { type: 'integer', minimum: 0, maximum: 999, description: '0 when a network fault gave no answer.' },
    statusText: { type: 'string' },
    httpVersion: { type: 'string' },
    cookies: PAIRS,
    headers: PAIRS,
    content: {
      type: 'object',
      required: ['size', 'mimeType'],
      properties: { size: { type: 'integer', minimum: 0, description: 'UTF-8 bytes of text.' }, mimeType: { type: 'string' }, text: { type: 'string' } },
    },
    redirectURL: { type: 'string' },
    headersSize: UNKNOWN_SIZE,
    bodySize: UNKNOWN_SIZE,
    _error: { type: 'string', description: 'For status 0: net::ERR_EMPTY_RESPONSE, as Chrome writes a request that got no answer.' },
  },
};

/**
 * The HAR's schemas, for `components.schemas`.
 *
 * @example
 * const schemas = { ...withBodyRules(components()), ...HAR_SCHEMAS };
 */
export const HAR_SCHEMAS: Record<string, OpenApiObject> = {
  Har: {
    type: 'object',
    required: ['log'],
    description:
      'HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): an entry per journal exchange, oldest first, with what the journal keeps: ' +
      'keys, selectors and the admin token redacted, bodies cut at maxBodyBytes.',
    properties: {
      log: {
        type: 'object',
        required: ['version', 'creator', 'entries'],
        properties: {
          version: { const: '1.2' },
          creator: { type: 'object', required: ['name', 'version'], properties: { name: { const: 'petstore-service' }, version: { type: 'string' } } },
          entries: { type: 'array', items: ref('schemas', 'HarEntry') },
        },
      },
    },
  },
  HarEntry: {
    type: 'object',
    required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
    properties: {
      startedDateTime: { type: 'string', description: 'The store\u2019s time it was answered less time.' },
      time: { ...MS, description: 'Real milliseconds from arrival to answer.' },
      request: HAR_REQUEST,
      response: HAR_RESPONSE,
      cache: { type: 'object' },
      timings: { type: 'object', required: ['send', 'wait', 'receive'], properties: { send: MS, wait: MS, receive: MS } },
    },
  },
  HarPair: NAME_AND_VALUE,
};

/** The 200 of `operationObject` with the download header. */
function downloaded(operationObject: OpenApiObject): OpenApiObject {
  const responses = operationObject.responses as OpenApiObject;
  const disposition = headerObject('Saves it as a file.', pattern('^attachment; filename="petstore-requests\\.har"$'));
  return { ...operationObject, responses: { ...responses, 200: { ...(responses[200] as OpenApiObject), headers: { 'Content-Disposition': disposition } } } };
}

/**
 * The path item of `/__admin/requests.har`, taking the journal's filters `parameters` (said in `filtered`).
 *
 * @example
 * const paths = { '/__admin/requests.har': harPathItem(JOURNAL_FILTERS, FILTERED) };
 */
export function harPathItem(parameters: OpenApiObject[], filtered: string): OpenApiObject {
  const { get, head } = getAndHead({
    operationId: 'getRequestsHar',
    tag: 'journal',
    summary: 'The journal as HAR 1.2.',
    description:
      'The exchanges GET /__admin/requests lists, as a HAR 1.2 file (application/json) for Chrome DevTools or Playwright\u2019s routeFromHAR: ' +
      `oldest first, absolute URLs, headers, query, bodies and timings. ${filtered}`,
    parameters,
    success: [200, 'The exchanges that match, as HAR.', ref('schemas', 'Har')],
  });
  return { get: downloaded(get as OpenApiObject), head: downloaded(head as OpenApiObject), options: options('requestsHarOptions', 'journal') };
}
