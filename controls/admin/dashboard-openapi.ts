/** The dashboard's part of the admin document: its page and files under `/__admin/` (no token), and the live feed of exchanges `GET /__admin/requests/events`. */
import { headerObject, jsonContent, type OpenApiObject, ref, withoutBodies } from '../../src/index.ts';
import { MAX_STREAMS, RETRY_STREAM_SECONDS, STREAM_QUEUE_BYTES } from '../dashboard/exchange-feed.ts';
import { PAGE_FILES, PAGE_HEADERS } from '../dashboard/dashboard-page.ts';
import { operation, options, RESPONSE_COMPONENTS } from './admin-openapi-parts.ts';

const TAG = 'dashboard';

/** What each header of the page's answers says. */
const PAGE_HEADER_ABOUT: Readonly<Record<string, string>> = {
  'Content-Security-Policy': 'The page runs its own script, styles and icon and calls its own origin only: nothing inline, evaluated or from elsewhere.',
  'X-Content-Type-Options': 'Each file is read as its declared type only.',
  'Referrer-Policy': 'The page sends no Referer.',
  'Cache-Control': 'A copy is checked with the server before use.',
};

/** The page's headers as header objects, each the exact value sent. */
const PAGE_HEADER_OBJECTS: OpenApiObject = Object.fromEntries(
  Object.entries(PAGE_HEADERS).map(([name, value]) => [name, headerObject(PAGE_HEADER_ABOUT[name]!, { type: 'string', const: value })]),
);

/** What each file of the page is. */
const FILE_ABOUT: Readonly<Record<string, readonly [operationId: string, summary: string]>> = {
  '/': ['getDashboard', 'The dashboard: a page that shows the journal live, the sandboxes, the clock and the faults.'],
  '/dashboard.js': ['getDashboardScript', 'The dashboard\u2019s script, one ES module.'],
  '/dashboard.css': ['getDashboardStyles', 'The dashboard\u2019s styles.'],
  '/favicon.svg': ['getDashboardIcon', 'The dashboard\u2019s icon.'],
};

/** The errors a page path answers: no 401, since it asks for no token. */
const PAGE_ERRORS = {
  400: ref('responses', 'BadRequest'),
  429: ref('responses', 'TooManyRequests'),
  '4XX': ref('responses', 'OtherClientError'),
};

/** A GET of the page and its HEAD, answering `success` (a response object whose content HEAD leaves out). */
function pageGetAndHead(operationId: string, summary: string, success: readonly [status: number, response: OpenApiObject]): OpenApiObject {
  const [status, response] = success;
  const description =
    'Needs no admin token (the page asks for it and sends it with each call it makes); a caller banned for wrong tokens is refused as everywhere. ' +
    'Other methods than GET, HEAD and OPTIONS answer 405 `method_not_allowed` with `Allow`.';
  const get = { operationId, tags: [TAG], summary, description, security: [], responses: { [status]: response, ...PAGE_ERRORS } };
  const { content: _, ...bodiless } = response;
  const head = {
    ...get,
    operationId: `${operationId}Head`,
    summary: `Headers only: ${summary}`,
    description: 'Answers exactly as GET does, the same status and headers, with no body.',
    responses: { ...get.responses, [status]: bodiless },
  };
  return { get, head, options: pageOptions(`${operationId}Options`) };
}

/** The OPTIONS of a page path: `Allow` without a token, as the page itself. */
const pageOptions = (operationId: string): OpenApiObject => ({
  operationId,
  tags: [TAG],
  summary: 'The methods this path answers, in `Allow`.',
  description: 'Needs no admin token, as GET of the page does not.',
  security: [],
  responses: { 204: { description: 'The methods, in `Allow`.', headers: { Allow: ref('headers', 'Allow') } }, ...PAGE_ERRORS },
});

/** The page's paths: `/__admin` (sent on to the folder) and each file below it. */
function pagePaths(): OpenApiObject {
  const folder = pageGetAndHead('redirectToDashboard', 'Where the dashboard is: `/__admin/`.', [
    308,
    {
      description: 'The dashboard is at `/__admin/`, where its relative links resolve.',
      headers: {
        Location: headerObject('`__admin/`: relative, so it stays under the mount path.', { type: 'string', const: '__admin/' }),
        ...PAGE_HEADER_OBJECTS,
      },
    },
  ]);
  const files = Object.entries(PAGE_FILES).map(([path, { type }]) => {
    const [operationId, summary] = FILE_ABOUT[path]!;
    const mediaType = type.split(';')[0]!;
    return [
      `/__admin${path}`,
      pageGetAndHead(operationId, summary, [
        200,
        { description: summary, headers: PAGE_HEADER_OBJECTS, content: { [mediaType]: { schema: { type: 'string' } } } },
      ]),
    ];
  });
  return { '/__admin': folder, ...Object.fromEntries(files) };
}

/** `GET /__admin/requests/events`: every world's exchanges as Server-Sent Events, bounded in streams and bytes. */
function eventsPath(): OpenApiObject {
  const get = operation({
    operationId: 'streamRequests',
    tag: 'journal',
    summary: 'Every exchange as it is journaled, as Server-Sent Events.',
    description:
      'Each exchange any world journals (the main one and every sandbox), from now on: `event: exchange` with `data: {"sandbox": null or ' +
      'the sandbox\u2019s id, "exchange": <RecordedExchange>}` (exactly the journal\u2019s entry, secrets redacted), and a comment line every ' +
      `15 seconds while nothing else is sent. At most ${MAX_STREAMS} streams are open at once; each holds at most ` +
      `${STREAM_QUEUE_BYTES / 1024 / 1024} MiB its reader has not taken: past that it sends \`event: overflow\` and ends, so the reader fetches ` +
      'the journal again (GET /__admin/requests) and opens a new stream. A stream ends when its reader goes, and when the server closes.',
    success: [200, 'The stream: it does not end on its own.'],
    others: {
      503: {
        description: `${MAX_STREAMS} streams are open already (\`service_unavailable\`): try again after \`Retry-After\` seconds.`,
        headers: {
          'Retry-After': headerObject('Whole seconds until a stream a reader left is found gone.', { type: 'integer', const: RETRY_STREAM_SECONDS }),
        },
        content: jsonContent(ref('schemas', 'Error')),
      },
    },
  });
  const responses = get.responses as OpenApiObject;
  const stream = {
    ...(responses[200] as OpenApiObject),
    headers: { 'Cache-Control': headerObject('The stream is never stored.', { type: 'string', const: 'no-store' }) },
    content: { 'text/event-stream': { schema: { type: 'string', description: 'Events as the HTML standard\u2019s Server-Sent Events define them, UTF-8.' } } },
  };
  const withStream = { ...get, responses: { ...responses, 200: stream } };
  const head = {
    ...withStream,
    operationId: 'streamRequestsHead',
    summary: 'Headers only: whether a stream would be opened.',
    description: 'Answers as GET does, the same status and headers, with no body; opens no stream.',
    responses: withoutBodies(withStream.responses, RESPONSE_COMPONENTS),
  };
  return { '/__admin/requests/events': { get: withStream, head, options: options('streamRequestsOptions', 'journal') } };
}

/**
 * The dashboard's paths of the admin document, for `adminOpenApiDocument` to add to the others.
 *
 * @example
 * const document = { paths: { ...withSandboxes(worldPaths), ...dashboardPaths() } };
 */
export function dashboardPaths(): OpenApiObject {
  return { ...pagePaths(), ...eventsPath() };
}
