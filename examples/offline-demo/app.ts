/** The demo page: starts the worker, then lists (a page at a time) and adds pets with plain fetch calls. */
import { start, type StartedPetStoreWorker } from 'petstore-service/browser';

const headers = { authorization: 'Bearer demo-key', 'content-type': 'application/json' };
const PAGE_SIZE = 10;
const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector(selector) as T;

/** `seconds` as people say it: "42 s", "14 min 58 s", "2 h 5 min". */
function duration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`;
}

/** What the last response said about the quota: the X-RateLimit headers, and Retry-After on a 429. */
let quota: { limit: string; remaining: string; resetsAt: number } | undefined;
let blockedUntil = 0;

function readQuota(response: Response): void {
  const [limit, remaining, reset] = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((h) => response.headers.get(h));
  // X-RateLimit-Reset is a Unix time in seconds: shown as a countdown, never as the raw number.
  if (limit && remaining && reset) quota = { limit, remaining, resetsAt: Number(reset) * 1000 };
  const retryAfter = Number(response.headers.get('retry-after'));
  blockedUntil = response.status === 429 && retryAfter > 0 ? Date.now() + retryAfter * 1000 : 0;
  showQuota();
}

function showQuota(): void {
  const now = Date.now();
  const parts = quota ? [`${quota.remaining} of ${quota.limit} requests left this minute`, `resets in ${duration((quota.resetsAt - now) / 1000)}`] : [];
  if (blockedUntil > now) parts.push(`blocked: try again in ${duration((blockedUntil - now) / 1000)}, or press Reset`);
  $('#quota').textContent = parts.join(' · ');
}

/** Shows the quota of a response, and its error body if it is one; resolves to the body. */
async function show(response: Response): Promise<unknown> {
  readQuota(response);
  const body = await response.json();
  $('#error').textContent = response.ok ? '' : `${response.status} ${body.code}: ${body.message}`;
  return body;
}

/** The pages visited since the first one: "Previous" goes back through them, "Next" follows Link. */
let pages: string[] = [];
let next: string | undefined;

function firstPage(): string {
  const status = new FormData($<HTMLFormElement>('#list')).get('status');
  return `/v1/pets?limit=${PAGE_SIZE}${status ? `&status=${status}` : ''}`;
}

async function showPage(url: string): Promise<void> {
  const response = await fetch(url, { headers });
  const pets = (await show(response)) as { id: number; name: string; categoryId: number; status?: string }[];
  if (!response.ok) return;
  next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  $('#pets').replaceChildren(
    ...pets.map((pet) => {
      const row = document.createElement('tr');
      for (const value of [pet.id, pet.name, pet.categoryId, pet.status ?? '—']) row.insertCell().textContent = String(value);
      return row;
    }),
  );
  $('#page').textContent = `Page ${pages.length}`;
  $<HTMLButtonElement>('#next').disabled = next === undefined;
  $<HTMLButtonElement>('#previous').disabled = pages.length < 2;
}

function list(): Promise<void> {
  pages = [firstPage()];
  return showPage(pages[0]!);
}

function nextPage(): void {
  if (next === undefined) return;
  pages.push(next);
  void showPage(next);
}

function previousPage(): void {
  pages.pop();
  void showPage(pages.at(-1)!);
}

async function add(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const form = new FormData($<HTMLFormElement>('#add'));
  const pet: Record<string, unknown> = { name: form.get('name'), categoryId: Number(form.get('categoryId')) };
  if (form.get('status')) pet.status = form.get('status');
  const response = await fetch('/v1/pets', { method: 'POST', headers, body: JSON.stringify(pet) });
  await show(response);
  if (response.ok) await list();
}

/** What the badge says: while it says Offline, the page asks its server again every RECHECK_MS. */
let reachable = navigator.onLine;
const RECHECK_MS = 5_000;

function showNetwork(online: boolean): void {
  reachable = online;
  $('#network').textContent = online ? 'Online' : 'Offline: the worker still answers /v1';
  $('#network').className = online ? 'badge' : 'badge offline';
}

let networkChecks = 0;

/**
 * navigator.onLine false means offline, but true only means "maybe": it stays true when the page's
 * server is down (the worker's cache answered the page), and Chromium 150 reports it true after a
 * reload under DevTools' offline emulation. So the page asks its server too: sw.js keeps only GETs,
 * so a HEAD goes to the network, and any answer at all means the server is there.
 */
async function checkNetwork(): Promise<void> {
  const check = ++networkChecks;
  if (!navigator.onLine) return showNetwork(false);
  const reached = await fetch(location.href, { method: 'HEAD', cache: 'no-store' }).then(
    () => true,
    () => false,
  );
  // A check that an online or offline event overtook says nothing any more.
  if (check === networkChecks) showNetwork(reached && navigator.onLine);
}

async function reset(worker: StartedPetStoreWorker): Promise<void> {
  await worker.reset();
  [quota, blockedUntil] = [undefined, 0];
  $('#error').textContent = '';
  await list();
  $('#status').textContent = 'Reset: no pets, a full quota, no ban.';
}

showNetwork(navigator.onLine);
void checkNetwork();
addEventListener('online', checkNetwork);
addEventListener('offline', checkNetwork);
// No event says the way back is open when navigator.onLine never went false (a server that comes
// back; the network back after an offline reload in Chromium 150): while the badge says Offline, ask
// again every 5 s. A tab coming back into view asks at once, as its timers ran seldom while hidden.
setInterval(() => reachable || void checkNetwork(), RECHECK_MS);
document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && void checkNetwork());
setInterval(showQuota, 1000);
$('#list').addEventListener('submit', (event) => (event.preventDefault(), list()));
$('#add').addEventListener('submit', add);
$('#next').addEventListener('click', nextPage);
$('#previous').addEventListener('click', previousPage);

try {
  const worker = await start({ url: './sw.js' });
  $('#reset').addEventListener('click', () => reset(worker));
  $('#status').textContent = 'Ready: every /v1 request is answered by the service worker, with or without a network.';
  await list();
  Object.assign(window, { demoReady: true });
} catch (error) {
  $('#status').textContent = `The service worker did not start: ${(error as Error).message}`;
}
