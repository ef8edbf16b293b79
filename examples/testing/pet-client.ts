/** A tiny Pet Store client, the kind of code people test against the fake backend. */

/** Options of {@link createPetClient}. */
export interface PetClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The fetch to use; tests pass the test store's `fetch`. */
  readonly fetch?: typeof fetch;
  /** How to wait between retries; tests pass the manual clock's `advance`. */
  readonly sleep?: (ms: number) => Promise<unknown> | unknown;
  /** Retries after a 429 or 503. Default 3. */
  readonly retries?: number;
}

/** A pet as the API returns it. */
export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: 'available' | 'pending' | 'sold';
}

/** Lists and creates pets; retries 429 and 503 after `Retry-After`, else with exponential backoff. */
export function createPetClient({ baseUrl, apiKey, fetch: send = fetch, sleep = wait, retries = 3 }: PetClientOptions) {
  async function request(path: string, init: RequestInit = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const response = await send(`${baseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
      });
      if ((response.status !== 429 && response.status !== 503) || attempt === retries) return response;
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(retryAfter > 0 ? retryAfter * 1000 : 100 * 2 ** attempt);
    }
  }
  async function json<T>(response: Response): Promise<T> {
    if (!response.ok) throw new Error(`${response.status} ${(await response.json()).code}`);
    return response.json();
  }
  return {
    listPets: (query: Record<string, string> = {}) => request(`/pets?${new URLSearchParams(query)}`).then((r) => json<Pet[]>(r)),
    // One Idempotency-Key for every attempt: a retry can never store the pet twice.
    createPet: (pet: Omit<Pet, 'id'>) =>
      request('/pets', { method: 'POST', body: JSON.stringify(pet), headers: { 'idempotency-key': crypto.randomUUID() } }).then((r) => json<Pet>(r)),
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
