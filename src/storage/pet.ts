/** A pet as it is stored and returned: the valibot schemas that check it, and its types (written out, so no valibot type reaches a consumer; pet.test.ts holds them equal). */
import * as v from 'valibot';

/** Availability of a pet: `available`, `pending` or `sold`. */
export const PetStatusSchema = v.pipe(
  v.picklist(['available', 'pending', 'sold'], 'must be one of available, pending, sold'),
  v.title('PetStatus'),
  v.description('Availability status of the animal.'),
);
/**
 * Availability of a pet.
 *
 * @example
 * const status: PetStatus = 'available';
 */
export type PetStatus = 'available' | 'pending' | 'sold';

/** Identifier the service assigns to a pet: a positive integer, exact in JavaScript. */
export const PetIdSchema = v.pipe(
  v.number('must be an integer'),
  v.safeInteger('must be an integer no larger than 2^53-1'),
  v.minValue(1, 'must be at least 1'),
  v.metadata({ format: 'int64' }),
);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The longest name `POST /pets` takes, in Unicode code points: longer than any real pet's name, and
 * short enough that a page of 100 pets stays near 40 kB even in 4-byte characters (a 65,000-character
 * name made one list answer 6.4 MB). Code points, not UTF-16 units, because JSON Schema's `maxLength`
 * counts them: an emoji is one of the 100, as the document says.
 *
 * @example
 * MAX_NAME_LENGTH; // 100
 */
export const MAX_NAME_LENGTH = 100;

/** How many code points `text` holds; a lone surrogate counts as one, as JSON Schema counts it. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A name as it is stored and read: no maximum, since pets stored before {@link MAX_NAME_LENGTH} existed still read. */
const StoredNameSchema = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  // A lone surrogate cannot be stored as UTF-8 by most databases, so it is refused up front.
  v.check((name) => !LONE_SURROGATE.test(name), 'must be well-formed Unicode text'),
);

/** The body of `POST /pets`. Unknown fields are dropped, never stored. */
export const NewPetSchema = v.pipe(
  v.object({
    name: v.pipe(
      StoredNameSchema,
      // valibot's maxLength counts UTF-16 units; the check counts code points and the metadata says so to the document.
      v.check((name) => codePoints(name) <= MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters (Unicode code points)`),
      v.metadata({ maxLength: MAX_NAME_LENGTH }),
      v.description(`Non-empty, well-formed Unicode text of at most ${MAX_NAME_LENGTH} characters (code points).`),
    ),
    categoryId: v.pipe(
      v.number('must be an integer'),
      v.safeInteger('must be an integer between -(2^53-1) and 2^53-1; larger int64 values are not accepted'),
      v.metadata({ format: 'int64' }),
    ),
    status: v.optional(PetStatusSchema),
  }),
  v.title('NewPet'),
);
/**
 * A pet as a client submits it (`POST /pets`).
 *
 * @example
 * const rex: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };
 */
export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/** A stored pet: every field of {@link NewPet} plus its `id`. */
export const PetSchema = v.pipe(
  v.object({
    id: PetIdSchema,
    ...NewPetSchema.entries,
    name: v.pipe(
      StoredNameSchema,
      v.description(`Non-empty, well-formed Unicode text; at most ${MAX_NAME_LENGTH} code points, but a pet stored before that limit may have a longer one.`),
    ),
  }),
  v.title('Pet'),
);
/**
 * A pet as the service returns it.
 *
 * @example
 * const pets: Pet[] = await (await petstore.fetch(request)).json();
 */
export interface Pet extends NewPet {
  id: number;
}
