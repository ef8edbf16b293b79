/** The dashboard's page and files under `/__admin/`: served to anyone the admin ban lets through, no token needed (the page asks for it), under a strict Content-Security-Policy. */
import { matchRoute, reasonPhrase, utf8Length, type Host } from '../../src/index.ts';
import { DASHBOARD_ASSETS } from './dashboard-assets.ts';
import { answerOn } from './route-answer.ts';

/**
 * The page's Content-Security-Policy: its own script, styles, icon and API calls, nothing inline,
 * from elsewhere or evaluated; no `<base>`, no form posts, no framing.
 *
 * @example
 * response.headers.get('content-security-policy') === DASHBOARD_CSP; // true for every file of the page
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * What every answer of the page's paths carries besides its type: the policy, no sniffing of types,
 * no `Referer` sent from the page, and no copy used before the server confirms it is current.
 *
 * @example
 * Object.keys(PAGE_HEADERS); // ['Content-Security-Policy', 'X-Content-Type-Options', 'Referrer-Policy', 'Cache-Control']
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

/** A file of the page: its media type and its text. */
interface PageFile {
  readonly type: string;
  readonly text: () => string;
}

/** Answers a GET (HEAD) of a page path. */
type PageAnswer = (request: Request, host: Host) => Response;

/** Where the page is: `/__admin` itself, whose relative links would miss the folder, sends the browser to `/__admin/`. */
const REDIRECTED = '';

/**
 * The page's files by their path below `/__admin`, with their media types. The strings are read
 * when asked, so the paths (and the admin document) need nothing of the bundle.
 *
 * @example
 * PAGE_FILES['/dashboard.js']!.type; // 'text/javascript; charset=utf-8'
 */
export const PAGE_FILES: Readonly<Record<string, PageFile>> = {
  '/': { type: 'text/html; charset=utf-8', text: () => DASHBOARD_ASSETS.html },
  '/dashboard.js': { type: 'text/javascript; charset=utf-8', text: () => DASHBOARD_ASSETS.script },
  '/dashboard.css': { type: 'text/css; charset=utf-8', text: () => DASHBOARD_ASSETS.styles },
  '/favicon.svg': { type: 'image/svg+xml', text: () => DASHBOARD_ASSETS.favicon },
};

/** A file's answer: its text (none for HEAD, with the length GET would send) and the page's headers. */
const fileAnswer =
  ({ type, text }: PageFile): PageAnswer =>
  (request, { ResponseClass = Response }) => {
    const body = text();
    const headers = { ...PAGE_HEADERS, 'Content-Type': type, ...(request.method === 'HEAD' && { 'Content-Length': String(utf8Length(body)) }) };
    return new ResponseClass(request.method === 'HEAD' ? null : body, { status: 200, statusText: 'OK', headers });
  };

/** `/__admin` to `/__admin/`, by a relative reference, so it lands under any mount path (`/api/__admin/`). */
const toTheFolder: PageAnswer = (_request, { ResponseClass = Response }) =>
  new ResponseClass(null, { status: 308, statusText: reasonPhrase(308), headers: { ...PAGE_HEADERS, Location: '__admin/' } });

const routes = [
  { path: REDIRECTED, methods: { GET: toTheFolder } },
  ...Object.entries(PAGE_FILES).map(([path, file]) => ({ path, methods: { GET: fileAnswer(file) } })),
];

/**
 * The answer to `request` if `path` (below `/__admin`) is one of the page's: the file for GET and
 * HEAD, `Allow` for OPTIONS; any other method throws the 405 ApiError with `Allow`. `undefined` for
 * the admin API's other paths.
 *
 * @example
 * const page = pageAnswer('/dashboard.css', request, host); // 200, text/css
 */
export function pageAnswer(path: string, request: Request, host: Host): Response | undefined {
  const match = matchRoute(routes, path);
  return match && answerOn(match.route, request, host);
}
