// The five scenarios ours and the peers are measured on, and the check that they answer them alike before any is measured.
import { isDeepStrictEqual } from 'node:util';

/** Pets in every store: more than a page, so the first page carries `Link: rel="next"`. */
export const SEEDED = 100;
/**
 * A second key, which only seeds the pets over HTTP (ours: the command, and `serve()` set up as it,
 * bench/load.mjs): the bench key's quota then stands where it stands on the servers seeded in
 * process, so the quota headers compare exactly.
 */
export const SEED_KEY = 'bench-seeding-key';

/** The address that floods and is banned before measuring: the 429 scenario is its requests. */
const BANNED = '192.0.2.66';
const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'sold' });

/**
 * How many addresses the 401 scenario's requests come from, in turn. Each connection sends them in
 * order, so a 3 s run at 45,000 a second, after a 1 s warm-up in the same minute, gives each one 18
 * requests: far below the Free plan's 60 a minute, and its 1,000 a day over a whole `npm run bench`.
 */
const WRONG_KEY_ADDRESSES = 10_000;
/** The address of the 401 scenario's request `i`. */
const address = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/**
 * The header that tells a server the caller's address, as a proxy in front would: `X-Real-IP` for
 * the servers given a `clientAddress` that reads it (ours, the peers), `X-Forwarded-For` for the
 * command started with `--trust-proxy 1`.
 */
export const REAL_IP = 'x-real-ip';

/**
 * The scenarios, in the order they run and are shown: how autocannon sends each
 * (`load(url, key, addressHeader)`), the status every answer must have, and what may differ
 * between servers in the sample (`normalize`, on the body's text).
 */
export const SCENARIOS = {
  list: {
    short: 'GET',
    title: 'GET /v1/pets (20-pet page)',
    status: 200,
    load: (url, key) => ({ url: `${url}/v1/pets`, headers: { authorization: `Bearer ${key}` } }),
  },
  create: {
    short: 'POST',
    title: 'POST /v1/pets (valid pet)',
    status: 201,
    load: (url, key) => ({
      url: `${url}/v1/pets`,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: NEW_PET,
    }),
    // Ids depend on how many pets each server stored before.
    normalize: (text) => text.replace(/"id":\d+/, '"id":#'),
  },
  wrongKey: {
    short: '401',
    title: 'GET with a wrong key (401)',
    status: 401,
    // The requests are built before the run, one per address: rebuilt per request (autocannon's
    // setupRequest), the load generator's own work capped the scenario at ~1.2x the GET's rate for
    // any server, the floor's fixed answer included (bench/rejection-budget.mjs, 2026-11-27).
    load: (url, _key, addressHeader = REAL_IP) => ({
      url: `${url}/v1/pets`,
      headers: { authorization: 'Bearer not-a-configured-key' },
      requests: Array.from({ length: WRONG_KEY_ADDRESSES }, (_, i) => ({ headers: { [addressHeader]: address(i) } })),
    }),
  },
  banned: {
    short: '429',
    title: 'GET from a banned address, no key (429)',
    status: 429,
    load: (url, _key, addressHeader = REAL_IP) => ({ url: `${url}/v1/pets`, headers: { [addressHeader]: BANNED } }),
    // The ban's seconds left depend on when each server banned.
    normalize: (text) => text.replace(/banned for \d+ more/, 'banned for # more'),
  },
  badQuery: {
    short: '400',
    title: 'GET with a bad query, `limit=0` (400)',
    status: 400,
    load: (url, key) => ({ url: `${url}/v1/pets?limit=0`, headers: { authorization: `Bearer ${key}` } }),
  },
};

/** What a sample may differ in: dates, resets and seconds left, which depend on when it was sent, and a charset. */
const TIMED = {
  // Fastify appends the charset to every JSON type, whatever the route sets; JSON is UTF-8 anyway (RFC 8259).
  'content-type': (value) => value.replace(/; charset=utf-8$/, ''),
  date: () => '#',
  'x-ratelimit-reset': () => '#',
  'retry-after': () => '#',
  ratelimit: (value) => value.replace(/t=\d+/g, 't=#'),
};

/**
 * Requests beside the scenarios, each server answering them alike in status, header names, error
 * code and (for a page) body and Link: the checks are the same, though validators word messages
 * their own way. `[path, init]`; `KEYED` stands for the key's Authorization header.
 */
const KEYED = Symbol('keyed');
/** Stands for the server's address header (`REAL_IP` or `X-Forwarded-For`). */
const ADDRESS = Symbol('address');
const json = (body, more = {}) => ({ method: 'POST', headers: { [KEYED]: true, 'content-type': 'application/json', ...more }, body });
/** A POST whose body is sent chunked, without Content-Length: each server must count it as it arrives. */
const chunked = (text) => ({ ...json(() => new Blob([text]).stream()), duplex: 'half' });
const PROBES = [
  ['/v1/pets?limit=5', { headers: { [KEYED]: true } }],
  ['/v1/pets?limit=5&status=available&cursor=cDE6NQ', { headers: { [KEYED]: true } }],
  ['/v1/pets?status=sold', { headers: { [KEYED]: true } }],
  ['/v1/pets?limit=0', { headers: { [KEYED]: true } }],
  ['/v1/pets?limit=1&limit=2', { headers: { [KEYED]: true } }],
  ['/v1/pets?status=lost', { headers: { [KEYED]: true } }],
  ['/v1/pets?cursor=zzz', { headers: { [KEYED]: true } }],
  ['/v1/pets', { headers: { [ADDRESS]: '203.0.113.9' } }],
  ['/v1/nowhere', { headers: { [KEYED]: true } }],
  ['/v1/pets', json('{"name":"","categoryId":"1","status":"lost"}')],
  ['/v1/pets', json('{"name":"a","categoryId":1.5}')],
  ['/v1/pets', json('{"name":"\\ud800","categoryId":1}')],
  ['/v1/pets', json('[1]')],
  ['/v1/pets', json('{bad')],
  ['/v1/pets', json('{"__proto__":{"x":1},"name":"a","categoryId":1}')],
  ['/v1/pets', json('{"name":"a","categoryId":1}', { 'content-type': 'text/plain' })],
  ['/v1/pets', json(JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }))],
  ['/v1/pets', chunked(JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }))],
  ['/v1/pets', chunked('{"name":"chunked","categoryId":1}')],
  ['/v1/pets', json('{"name":"a","categoryId":1,"extra":2}', { 'idempotency-key': 'probe' })],
  ['/v1/pets', json('{"name":"a","categoryId":1}', { 'idempotency-key': 'probe' })],
  ['/v1/pets', json('{"name":"b","categoryId":1}', { 'idempotency-key': 'probe' })],
];

/** A probe's answer as compared: status, header names (but the connection's), error code, and a page's body and Link. */
async function probe(url, key, [path, { headers, body, ...init }], addressHeader) {
  const { [KEYED]: keyed, [ADDRESS]: address, ...sent } = headers;
  if (keyed) sent.authorization = `Bearer ${key}`;
  if (address) sent[addressHeader] = address;
  const response = await fetch(`${url}${path}`, { ...init, body: typeof body === 'function' ? body() : body, headers: sent });
  const text = await response.text();
  // Whether a connection stays open after a refused body is the server's choice (Fastify closes it on bad JSON), not the API's.
  const names = [...response.headers.keys()]
    .filter((name) => name !== 'connection' && name !== 'keep-alive')
    .sort()
    .join(',');
  if (response.status === 200) return { status: 200, names, body: text, link: response.headers.get('link') };
  return { status: response.status, names, code: text === '' ? undefined : JSON.parse(text).code };
}

/** Floods `url` from the banned address until it answers `key_banned`: 60 admitted, 11 refused, then a ban. */
async function ban(url, addressHeader) {
  for (let i = 0; i < 500; i++) {
    const response = await fetch(`${url}/v1/pets`, { headers: { [addressHeader]: BANNED } });
    const body = await response.json();
    if (body.code === 'key_banned') return;
  }
  throw new Error(`${url} did not ban ${BANNED} after 500 requests`);
}

/** One answer as compared: status, every header (time-dependent values masked), the body's text (normalized). */
export async function sample(url, key, scenario, extra = {}, addressHeader = REAL_IP) {
  const { url: target, headers, method, body } = scenario.load(url, key, addressHeader);
  const response = await fetch(target, { method, body, headers: { ...headers, ...extra } });
  const text = await response.text();
  const normalize = scenario.normalize ?? ((value) => value);
  const answer = { status: response.status, headers: {}, body: normalize(text) };
  for (const [name, value] of response.headers) answer.headers[name] = TIMED[name]?.(value) ?? value;
  // The length and the new pet's Location follow the body, compared as normalized text.
  if (scenario.normalize) answer.headers['content-length'] = '#';
  if (answer.headers.location) answer.headers.location = answer.headers.location.replace(/\d+$/, '#');
  return answer;
}

/**
 * Bans the flooding address on every server, then sends each one the same sample request per
 * scenario, in the same order, and throws unless every server's answer equals ours (the first):
 * same status, same header names and values (times masked), same body (POST's id and the ban's
 * seconds masked); then the probes. `servers` maps a name to a URL, or to `{ url, addressHeader }`
 * for a server told the caller's address by another header than `X-Real-IP`. Resolves to how many
 * answers were compared per server.
 */
export async function assertSameWork(servers, key) {
  const started = minuteOf(Date.now());
  let differences = await compare(servers, key);
  // A minute that turns during the check changes the minute window's r= between servers that asked
  // before and after it: then the same requests are sent again to all, which no real difference survives.
  if (differences.length > 0 && minuteOf(Date.now()) !== started) differences = await compare(servers, key);
  if (differences.length > 0) throw new Error(`The servers do not do the same work; nothing was measured.\n  ${differences.join('\n  ')}`);
  return { scenarios: Object.keys(SCENARIOS).length, probes: PROBES.length };
}

const minuteOf = (time) => Math.floor(time / 60_000);

/** Every server's answers to the scenarios and probes, and how each differs from the first server's. */
async function compare(servers, key) {
  const [ours, ...peers] = Object.keys(servers);
  const answers = {};
  for (const [name, server] of Object.entries(servers)) {
    const { url, addressHeader = REAL_IP } = typeof server === 'string' ? { url: server } : server;
    await ban(url, addressHeader);
    answers[name] = {};
    for (const [scenario, spec] of Object.entries(SCENARIOS)) {
      const extra = scenario === 'wrongKey' ? { [addressHeader]: '198.51.100.7' } : {};
      answers[name][scenario] = await sample(url, key, spec, extra, addressHeader);
    }
    for (const [i, request] of PROBES.entries()) answers[name][`probe ${i + 1}`] = await probe(url, key, request, addressHeader);
  }
  const differences = [];
  for (const peer of peers) {
    for (const scenario of Object.keys(answers[ours])) {
      const [a, b] = [answers[ours][scenario], answers[peer][scenario]];
      if (SCENARIOS[scenario] && a.status !== SCENARIOS[scenario].status)
        differences.push(`${scenario}: ${ours} answered ${a.status}, not ${SCENARIOS[scenario].status}`);
      if (isDeepStrictEqual(a, b)) continue;
      differences.push(`${scenario}: ${peer} differs from ${ours}:\n    ${ours}: ${JSON.stringify(a)}\n    ${peer}: ${JSON.stringify(b)}`);
    }
  }
  return differences;
}
