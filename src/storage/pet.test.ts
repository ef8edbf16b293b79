/** The written-out pet and error types are exactly what their schemas accept, so neither can drift. */
import type * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import { ErrorBodySchema, type ErrorBody } from '../response/api-error.ts';
import { NewPetSchema, PetSchema, PetStatusSchema, type NewPet, type Pet, type PetStatus } from './pet.ts';

describe('the public data types', () => {
  it('equal the output types of the schemas that validate them', () => {
    expectTypeOf<PetStatus>().toEqualTypeOf<v.InferOutput<typeof PetStatusSchema>>();
    expectTypeOf<NewPet>().toEqualTypeOf<v.InferOutput<typeof NewPetSchema>>();
    expectTypeOf<Pet>().toEqualTypeOf<v.InferOutput<typeof PetSchema>>();
    expectTypeOf<ErrorBody>().toEqualTypeOf<v.InferOutput<typeof ErrorBodySchema>>();
  });
});
