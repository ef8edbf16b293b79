/** The route table: every path of the API and the operation each method runs there. */
import { createPet } from './create-pet.ts';
import { deprecationHeaders, getPet } from './get-pet.ts';
import { listPets } from './list-pets.ts';
import { openApiOperation } from './openapi.ts';
import type { OperationSettings, Route } from './types.ts';

/** The API's routes, for these settings. */
export function createRoutes(settings: OperationSettings): Route[] {
  return [
    { path: '/pets', methods: { GET: listPets, POST: createPet } },
    { path: '/pets/{petId}', methods: { GET: getPet }, headers: deprecationHeaders(settings) },
    { path: '/openapi.json', methods: { GET: openApiOperation() }, public: true },
  ];
}
