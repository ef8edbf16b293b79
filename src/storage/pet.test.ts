/** The written-out pet and error types are exactly what their schemas accept, so neither can drift. */
import type * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { ErrorBodySchema, ErrorBody } from '../response/api-error.ts';
import type { NewPetSchema, PetSchema, PetStatusSchema, NewPet, Pet, PetStatus } from './pet.ts';

describe('the public data types', () => {
  it('equal the output types of the schemas that validate them', () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<v.InferOutput<typeof PetStatusSchema>>();
    expectTypeOf<NewPet>().toEqualTypeOf<v.InferOutput<typeof NewPetSchema>>();
    expectTypeOf<Pet>().toEqualTypeOf<v.InferOutput<typeof PetSchema>>();
    expectTypeOf<ErrorBody>().toEqualTypeOf<v.InferOutput<typeof ErrorBodySchema>>();
  });
});
