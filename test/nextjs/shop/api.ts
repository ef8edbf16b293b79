/** The shop's calls to the Pet Store API: its own key for the whole process (PETSTORE_API_URL, PETSTORE_API_KEY). */

/** A pet as the API answers it. */
export interface Pet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
}

/**
 * Calls the API with the shop's key and resolves to its JSON; a refusal rejects with its status and message.
 *
 * @example
 * const pets = await callApi<Pet[]>('/pets?limit=100');
 */
export async function callApi<T>(path: string, init: RequestInit = {}): Promise<T> {
  const api = process.env.PETSTORE_API_URL;
  const key = process.env.PETSTORE_API_KEY;
  if (!api || !key) throw new Error('pet shop: set PETSTORE_API_URL and PETSTORE_API_KEY');
  const response = await fetch(`${api}${path}`, {
    ...init,
    cache: 'no-store',
    headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...init.headers },
  });
  const body = (await response.json()) as T & { message?: string };
  if (!response.ok) throw new Error(`${response.status}: ${body.message ?? response.statusText}`);
  return body;
}
