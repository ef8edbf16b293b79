/** The dashboard's calls to the admin API: the token kept in sessionStorage only, sent as a bearer header, and a refusal's Error body as an error. */

/** The sessionStorage key of the admin token: gone when the tab closes, never in localStorage, a cookie or a URL. */
const TOKEN_KEY = 'petstore-admin-token';

/**
 * The admin token this tab signed in with, if any.
 *
 * @example
 * if (storedToken() === null) showSignIn();
 */
export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

/**
 * Keeps `token` for this tab (sessionStorage), or forgets it with `null`.
 *
 * @example
 * keepToken(null); // signed out
 */
export function keepToken(token: string | null): void {
  if (token === null) sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, token);
}

/**
 * The admin API's answer to a call it refused: its Error body's code, message and status, or the
 * status alone when the body was not one (a proxy's page, a network failure as status 0).
 *
 * @example
 * try { await adminJson('clock'); } catch (error) { if (error instanceof AdminRefusal && error.status === 401) signOut(error.message); }
 */
export class AdminRefusal extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'AdminRefusal';
    this.status = status;
    this.code = code;
  }
}

/**
 * The URL of `path` under the admin API: `/__admin/` found in the page's own path, so a store
 * mounted under a prefix (`/api/__admin/`) is called there too, and the page at `/__admin` without
 * its slash still calls `/__admin/…`.
 *
 * @example
 * adminUrl('requests?limit=500'); // 'http://127.0.0.1:8080/__admin/requests?limit=500'
 */
export function adminUrl(path: string): string {
  const at = location.pathname.lastIndexOf('/__admin');
  const base = at === -1 ? '/__admin/' : `${location.pathname.slice(0, at)}/__admin/`;
  return new URL(base + path, location.origin).href;
}

/** The refusal `response` carries: its Error body when it has one, else a message naming the status. */
async function refusalOf(response: Response): Promise<AdminRefusal> {
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    const code = 'code' in body && typeof body.code === 'string' ? body.code : 'unknown';
    return new AdminRefusal(response.status, code, body.message);
  }
  return new AdminRefusal(response.status, 'unknown', `The admin API answered ${response.status} ${response.statusText}`.trim());
}

/**
 * `fetch` of an admin path with the token (the stored one, or `token` while signing in): the
 * Response when it is a success, else rejects with its {@link AdminRefusal}.
 *
 * @example
 * const har = await (await adminFetch('requests.har')).blob();
 */
export async function adminFetch(path: string, init: RequestInit = {}, token = storedToken()): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(adminUrl(path), { ...init, headers, cache: 'no-store', credentials: 'omit' });
  } catch (failure) {
    if (init.signal?.aborted) throw failure;
    throw new AdminRefusal(0, 'network', 'The server did not answer: is it still running?');
  }
  if (!response.ok) throw await refusalOf(response);
  return response;
}

/**
 * An admin call's JSON answer; `body`, when given, is sent as JSON with `method` (POST unless said).
 *
 * @example
 * const { now } = await adminJson<{ now: string }>('clock', { body: { advanceMs: 60_000 } });
 */
export async function adminJson<T>(path: string, { method, body }: { method?: string; body?: unknown } = {}): Promise<T> {
  const init: RequestInit =
    body === undefined
      ? { method: method ?? 'GET' }
      : { method: method ?? 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const response = await adminFetch(path, init);
  return (response.status === 204 ? undefined : await response.json()) as T;
}
