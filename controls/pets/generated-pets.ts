/**
 * Generated pets: a pure function of (count, seed), the same bytes in every runtime, for seeding a
 * fake backend with a realistic store. No data library: it goes into the service worker too.
 */
import type { NewPet, PetStatus } from '../../src/index.ts';
import { MAX_SEED, randomWords } from './random.ts';

/** The most pets one call generates: enough for paging and filters, few enough to seed in a blink. */
export const MAX_GENERATED_PETS = 10_000;
/** The seed when none is given. */
export const DEFAULT_GENERATE_SEED = 1;

/**
 * What to generate: `count` pets (1 to 10,000) from `seed` (an integer 0 to 2^32 - 1, default 1).
 *
 * @example
 * const options: GenerateOptions = { count: 25, seed: 7 };
 */
export interface GenerateOptions {
  readonly count: number;
  readonly seed?: number;
}

// 300 names people give pets, in one string: the list is the bulk of this module.
const NAMES = (
  'Abby Ace Almond Apollo Archie Arlo Athena Atlas Aurora Bailey Bandit Banjo Barney Basil Baxter Bean ' +
  'Bear Beau Bella Benji Benny Bianca Bingo Biscotti Biscuit Blossom Blue Bo Bolt Bonnie Boomer Boots ' +
  'Boris Brownie Bruno Bubbles Buddy Buster Butter Button Cali Callie Calvin Caramel Cash Casper Champ ' +
  'Charlie Cheddar Chester Chestnut Chewie Chico Chip Cinnamon Cleo Clover Clyde Coco Cocoa Cody ' +
  'Cookie Cooper Copper Cosmo Crumpet Cupcake Daisy Dakota Dante Dash Dexter Diesel Dixie Dolly Domino ' +
  'Doodle Dot Dottie Duke Dumpling Dusty Echo Eddie Ellie Elsa Elvis Ember Felix Fern Figaro Finn ' +
  'Fiona Flash Fluffy Frankie Freddie Frodo Fudge Garfield Gatsby George Gigi Ginger Gizmo Goldie ' +
  'Goose Gordo Gracie Gumbo Gus Hank Harley Harvey Hazel Honey Hopper Hugo Hunter Iggy Indie Ivy Izzy ' +
  'Jack Jackson Jasper Jax Jazz Jelly Jess Jinx Juniper Juno Kahlua Kiki Kiwi Kobe Koda Kona Lacey Leo ' +
  'Lexi Lilly Loki Lola Louie Lucky Lucy Lulu Luna Mabel Maddie Maggie Mango Maple Marble Marley ' +
  'Marshmallow Max Maya Meatball Merlin Midnight Millie Milo Mimi Minnie Mischief Misty Mittens Mocha ' +
  'Mochi Molly Moose Muffin Murphy Nala Nemo Nico Noodle Nova Nugget Nutmeg Oakley Olaf Olive Oliver ' +
  'Ollie Onyx Opal Oreo Oscar Otis Ozzy Paisley Panda Patches Peaches Peanut Pearl Pebbles Penny ' +
  'Pepper Percy Pesto Pickles Piper Pippin Pistachio Pixie Poe Polly Poppy Porkchop Pudding Pumpkin ' +
  'Quincy Quinn Radar Raisin Rascal Remy Rex Riley Rocco Rocky Rolo Romeo Rosie Roxy Ruby Rudy Rufus ' +
  'Rusty Sadie Saffron Sage Salem Sam Sammy Sasha Scooter Scout Shadow Sherlock Simba Skittles Sky ' +
  'Smokey Smudge Snickers Snoopy Snowball Sophie Sox Sparky Spike Sprinkles Squeaky Stanley Stella ' +
  'Sugar Sunny Sushi Sweetpea Swiper Taco Tango Tater Teddy Theo Thistle Thor Tiger Tilly Tinkerbell ' +
  'Toby Toffee Tofu Trixie Truffle Tucker Turbo Tux Velvet Waffles Wasabi Whiskers Wiggles Willow ' +
  'Winnie Winston Xena Yoda Yogi Zeus Ziggy Zoe Zorro Zuzu'
).split(' ');
// Now and then a title, as in "Captain Biscuit": more names from the same few bytes.
const TITLES = ['Sir', 'Lady', 'Captain', 'Little', 'Big', 'Princess', 'Mister', 'Miss', 'Doctor', 'Professor', 'Baby', 'King', 'Queen'];
/** Category ids by weight out of 100: think 1 dogs, 2 cats, 3 birds, 4 fish, 5 rabbits, 6 reptiles. */
const CATEGORY_WEIGHTS = [35, 30, 10, 10, 10, 5];
const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];
/** Status weights out of 100, in the order of STATUSES: most pets are for sale. */
const STATUS_WEIGHTS = [60, 15, 25];

/** The index `word % 100` falls in, by `weights` out of 100. */
function weighted(word: number, weights: readonly number[]): number {
  let left = word % 100;
  let index = 0;
  while (left >= weights[index]!) left -= weights[index++]!;
  return index;
}

/** `value` if it is a whole number from `min` to `max`, else a TypeError naming `what`. */
function wholeNumber(value: unknown, min: number, max: number, what: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new TypeError(
    `generatedPets: ${what} must be a whole number from ${min} to ${max}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
  );
}

/**
 * `count` pets from `seed`: the same list, byte for byte, for the same (count, seed) in every
 * runtime and on every call; each valid as a `POST /pets` body. Names come from a built-in list
 * of 300 (one in twelve with a title, "Captain Biscuit"); `categoryId` is 1 to 6, mostly 1 and 2;
 * every pet has a status, mostly `available`. With 3 or more pets, all three statuses appear: three
 * positions drawn from the seed get one each. A count or seed out of range is a TypeError.
 *
 * @example
 * const pets = generatedPets({ count: 25, seed: 7 });
 * await petstore.seed(pets); // or petstore.seed({ generate: { count: 25, seed: 7 } })
 */
export function generatedPets({ count, seed = DEFAULT_GENERATE_SEED }: GenerateOptions): NewPet[] {
  wholeNumber(count, 1, MAX_GENERATED_PETS, 'count');
  const next = randomWords(wholeNumber(seed, 0, MAX_SEED, 'seed'));
  const forced = new Map<number, PetStatus>();
  if (count >= STATUSES.length) {
    for (const status of STATUSES) {
      let at = next() % count;
      while (forced.has(at)) at = next() % count;
      forced.set(at, status);
    }
  }
  const pets: NewPet[] = [];
  for (let i = 0; i < count; i++) {
    const base = NAMES[next() % NAMES.length]!;
    const name = next() % 12 === 0 ? `${TITLES[next() % TITLES.length]} ${base}` : base;
    const categoryId = weighted(next(), CATEGORY_WEIGHTS) + 1;
    const drawn = STATUSES[weighted(next(), STATUS_WEIGHTS)]!;
    pets.push({ name, categoryId, status: forced.get(i) ?? drawn });
  }
  return pets;
}
