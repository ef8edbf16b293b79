/** The shop's home page, rendered on the server for each request: the API's pets, and a form that adds one. */
import { callApi, type Pet } from '../api';

// Rendered per request: the pets change between visits.
export const dynamic = 'force-dynamic';

/**
 * Lists the pets the API answers with the shop's key.
 *
 * @example
 * // GET / → <ul id="pets"><li data-id="1">Rex</li></ul> and the form
 * await Page();
 */
export default async function Page() {
  const pets = await callApi<Pet[]>('/pets?limit=100');
  return (
    <main>
      <h1>Our pets</h1>
      <ul id="pets">
        {pets.map((pet) => (
          <li key={pet.id} data-id={pet.id}>
            {pet.name}
          </li>
        ))}
      </ul>
      <form method="post" action="/pets">
        <label>
          Name <input name="name" required />
        </label>
        <label>
          Category <input name="categoryId" type="number" defaultValue={1} required />
        </label>
        <button type="submit">Add pet</button>
      </form>
    </main>
  );
}
