// @ts-check
// The demo page: registers the worker, then lists and adds pets through plain fetch calls.
const headers = { authorization: 'Bearer demo-key', 'content-type': 'application/json' };
/** @param {string} selector */
const $ = (selector) => /** @type {HTMLElement & HTMLFormElement} */ (document.querySelector(selector));

/**
 * Shows the quota headers of a response, and its error body if it is one.
 * @param {Response} response
 */
async function show(response) {
  const quota = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((h) => `${h}: ${response.headers.get(h)}`);
  $('#quota').textContent = quota.join(' · ');
  const body = await response.json();
  $('#error').textContent = response.ok ? '' : `${response.status} ${body.code}: ${body.message}`;
  return body;
}

async function list() {
  const status = new FormData($('#list')).get('status');
  const response = await fetch(`/v1/pets?limit=100${status ? `&status=${status}` : ''}`, { headers });
  /** @type {{ id: number, name: string, categoryId: number, status?: string }[]} */
  const pets = await show(response);
  if (!response.ok) return;
  $('#pets').replaceChildren(
    ...pets.map((pet) => {
      const row = document.createElement('tr');
      for (const value of [pet.id, pet.name, pet.categoryId, pet.status ?? '—']) row.insertCell().textContent = String(value);
      return row;
    }),
  );
}

/** @param {SubmitEvent} event */
async function add(event) {
  event.preventDefault();
  const form = new FormData($('#add'));
  /** @type {Record<string, unknown>} */
  const pet = { name: form.get('name'), categoryId: Number(form.get('categoryId')) };
  if (form.get('status')) pet.status = form.get('status');
  const response = await fetch('/v1/pets', { method: 'POST', headers, body: JSON.stringify(pet) });
  await show(response);
  if (response.ok) await list();
}

$('#list').addEventListener('submit', (event) => (event.preventDefault(), list()));
$('#add').addEventListener('submit', add);

await navigator.serviceWorker.register('./sw.js');
if (!navigator.serviceWorker.controller) {
  await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
}
$('#status').textContent = 'Ready: every /v1 request is answered by the service worker, with or without a network.';
await list();
Object.assign(window, { demoReady: true });
export {};
