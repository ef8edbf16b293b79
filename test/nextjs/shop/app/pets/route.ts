/** The shop's form target: creates the pet through the API, then back to the list. */
import { callApi } from '../../api';

/**
 * Creates the posted pet with `POST {API}/pets` and redirects to `/` (303).
 *
 * @example
 * // <form method="post" action="/pets"> with name=Rex&categoryId=1
 * await POST(request);
 */
export async function POST(request: Request): Promise<Response> {
  const form = await request.formData();
  await callApi('/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: String(form.get('name')), categoryId: Number(form.get('categoryId')) }),
  });
  return new Response(null, { status: 303, headers: { location: '/' } });
}
