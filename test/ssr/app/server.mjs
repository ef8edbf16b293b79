// @ts-check
/**
 * A pet shop's server-rendered pages, as a team writes one: Express renders the Pet Store's pets as
 * HTML, and a form creates one. It calls the API from its own server with one key for the whole
 * process (PETSTORE_API_URL and PETSTORE_API_KEY), and prints `pet shop listening on <url>`.
 */
import express from 'express';

const api = process.env.PETSTORE_API_URL;
const key = process.env.PETSTORE_API_KEY;
if (!api || !key) throw new Error('pet shop: set PETSTORE_API_URL and PETSTORE_API_KEY');

/** `text` safe inside HTML. @param {unknown} text */
const html = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A call to the API with the shop's key: its answer, or an Error carrying the API's status and message.
 *
 * @param {string} path
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [init]
 */
async function callApi(path, init = {}) {
  const response = await fetch(`${api}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...init.headers },
  });
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(body.message ?? response.statusText), { status: response.status });
  return body;
}

/** @param {string} title @param {string} main */
const page = (title, main) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head><body><h1>${html(title)}</h1>${main}</body></html>`;

const app = express();
app.use(express.urlencoded({ extended: false }));

app.get('/', async (req, res, next) => {
  try {
    /** @type {{ id: number, name: string, categoryId: number }[]} */
    const pets = await callApi('/pets?limit=100');
    const items = pets.map((pet) => `<li data-id="${pet.id}">${html(pet.name)}</li>`).join('');
    res.type('html').send(
      page(
        'Our pets',
        `<ul id="pets">${items}</ul>
<form method="post" action="/pets">
  <label>Name <input name="name" required></label>
  <label>Category <input name="categoryId" type="number" value="1" required></label>
  <button type="submit">Add pet</button>
</form>`,
      ),
    );
  } catch (error) {
    next(error);
  }
});

app.post('/pets', async (req, res, next) => {
  try {
    await callApi('/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: req.body.name, categoryId: Number(req.body.categoryId) }),
    });
    res.redirect(303, '/');
  } catch (error) {
    next(error);
  }
});

// The API's refusal, shown to the visitor with its status.
/** @param {{ status?: unknown, message: string }} error */
const statusOf = (error) => (typeof error.status === 'number' ? error.status : 500);
/** @type {express.ErrorRequestHandler} */
const apiError = (error, req, res, next) =>
  void res
    .status(statusOf(error))
    .type('html')
    .send(page('Something went wrong', `<p id="error">${statusOf(error)}: ${html(error.message)}</p>`));
app.use(apiError);

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`pet shop listening on http://127.0.0.1:${address.port}`);
});
