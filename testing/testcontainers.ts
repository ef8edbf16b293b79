/** petstore-service/testcontainers: the Pet Store's image under Testcontainers, with sandboxes opened over its admin API as petstore-service/playwright opens them. */
import { randomBytes } from 'node:crypto';
import { AbstractStartedContainer, GenericContainer, ImageName, type StartedTestContainer, Wait } from 'testcontainers';
import { MAX_GENERATED_PETS, MAX_SEED, type GenerateOptions, type SandboxKeys } from '../controls/index.ts';
import { ADMIN_TOKEN_PATTERN, ADMIN_TOKEN_RULE, apiKeyEntries, parseApiKeys, type Plan } from '../src/index.ts';
import { DEFAULT_IMAGE } from './image-name.ts';
import { openRemoteSandbox, type PetstoreSandbox } from './sandbox-client.ts';

/**
 * The types a sandbox's controls take and give, so a suite needs this one import.
 *
 * @example
 * import { PetStoreContainer, type PetstoreSandbox } from 'petstore-service/testcontainers';
 */
export type { PetstoreSandbox, RemoteFaultRule, RemotePendingFault } from './sandbox-client.ts';
export type { GenerateOptions, Har, JournalFilter, RecordedExchange, SandboxKeys, SeedInput, Verification } from '../controls/index.ts';

/** The port the image serves on (its PORT); Testcontainers maps it to a free port of the host. */
const PORT = 8080;

/** A secret as the command makes one: 32 characters a Bearer header carries as they are. */
const secret = () => randomBytes(24).toString('base64url');

/** `image` if it can name an image, else a TypeError. */
function imageNamed(image: string): string {
  if (typeof image !== 'string' || !/^\S+$/.test(image)) throw new TypeError('withImage takes an image name, like "petstore-service:dev"');
  return image;
}

/** `apiKeys` as PETSTORE_API_KEYS holds them (`key:plan,…`), checked by the command's own parser; a TypeError naming the method otherwise. */
function apiKeysText(apiKeys: Readonly<Record<string, Plan>> | ReadonlyMap<string, Plan>): string {
  try {
    const text = apiKeyEntries(apiKeys)
      .map(([key, plan]) => `${key}:${typeof plan === 'object' && plan !== null ? `enterprise:${plan.perMinute}:${plan.perDay}` : plan}`)
      .join();
    parseApiKeys(text);
    return text;
  } catch (error) {
    throw new TypeError(`withApiKeys: ${(error as Error).message}`);
  }
}

/**
 * The Pet Store's container (the `petstore-service` command in its image) for Testcontainers: the
 * command with the admin API on, a key per plan and its admin token made up for the run, ready
 * when `/readyz` answers. Every `GenericContainer` method works too (`withNetwork`, `withReuse`, …).
 * A method given what it cannot take throws a TypeError at once, naming what it takes.
 *
 * @example
 * const petstore = await new PetStoreContainer().withGenerate({ count: 20 }).start();
 * const sandbox = await petstore.sandbox();
 * await fetch(`${sandbox.url}/pets`, { headers: { authorization: `Bearer ${sandbox.keys.free}` } });
 * await sandbox.verify({ method: 'GET', path: '/v1/pets', times: 1 });
 * await petstore.stop();
 */
export class PetStoreContainer extends GenericContainer {
  #apiKeys = '';
  #adminToken: string | undefined;
  #generate: string | undefined;

  /** @param image - default the image this version's release publishes (ghcr.io/petstore-service/petstore-service:<version>). */
  constructor(image: string = DEFAULT_IMAGE) {
    super(imageNamed(image));
    this.withExposedPorts(PORT).withWaitStrategy(Wait.forHttp('/readyz', PORT));
  }

  /**
   * The image to run: one you built (`npm run image` builds `petstore-service:dev`) or pulled.
   *
   * @example
   * new PetStoreContainer().withImage('localhost/petstore-service:dev');
   */
  withImage(image: string): this {
    // GenericContainer takes its image in the constructor only: both fields it set there.
    this.imageName = ImageName.fromString(imageNamed(image));
    this.createOpts.Image = this.imageName.string;
    return this;
  }

  /**
   * Your own keys, beside the one per plan the container is given anyway (`keys`): an object or
   * Map from key to plan, as `createPetStore`'s `apiKeys` option takes them.
   *
   * @example
   * new PetStoreContainer().withApiKeys({ 'app-under-test-key': 'pro' });
   */
  withApiKeys(apiKeys: Readonly<Record<string, Plan>> | ReadonlyMap<string, Plan>): this {
    this.#apiKeys = apiKeysText(apiKeys);
    return this;
  }

  /**
   * The admin token (PETSTORE_ADMIN_TOKEN); default one made up for the run.
   *
   * @example
   * new PetStoreContainer().withAdminToken('my-admin-token-0123');
   */
  withAdminToken(token: string): this {
    if (typeof token !== 'string' || !ADMIN_TOKEN_PATTERN.test(token)) throw new TypeError(`withAdminToken takes ${ADMIN_TOKEN_RULE}`);
    this.#adminToken = token;
    return this;
  }

  /**
   * Generated pets in the main world at start (PETSTORE_GENERATE, `--generate count:seed`).
   *
   * @example
   * new PetStoreContainer().withGenerate({ count: 25, seed: 7 });
   */
  withGenerate(options: GenerateOptions): this {
    const { count, seed } = Object(options) as Partial<GenerateOptions>;
    const whole = (n: unknown, min: number, max: number) => Number.isInteger(n) && (n as number) >= min && (n as number) <= max;
    if (!whole(count, 1, MAX_GENERATED_PETS) || !(seed === undefined || whole(seed, 0, MAX_SEED))) {
      throw new TypeError(`withGenerate takes { count, seed? }: a count from 1 to ${MAX_GENERATED_PETS}, a seed from 0 to ${MAX_SEED}`);
    }
    // Without a seed, the command's default.
    this.#generate = seed === undefined ? `${count}` : `${count}:${seed}`;
    return this;
  }

  /**
   * Starts the container and resolves once `/readyz` answers 200.
   *
   * @example
   * const petstore = await new PetStoreContainer().start();
   */
  override async start(): Promise<StartedPetStoreContainer> {
    const keys: SandboxKeys = { free: secret(), pro: secret(), business: secret() };
    const adminToken = this.#adminToken ?? secret();
    const own = Object.entries(keys).map(([plan, key]) => `${key}:${plan}`);
    this.withEnvironment({
      PETSTORE_API_KEYS: [...own, ...(this.#apiKeys ? [this.#apiKeys] : [])].join(),
      PETSTORE_ADMIN_TOKEN: adminToken,
      ...(this.#generate && { PETSTORE_GENERATE: this.#generate }),
    });
    return new StartedPetStoreContainer(await super.start(), keys, adminToken);
  }
}

/**
 * A started {@link PetStoreContainer}: the API's URL, a key per plan, the admin token, and
 * `sandbox()`. `stop()` removes the container, and every sandbox with it.
 *
 * @example
 * const petstore = await new PetStoreContainer().start();
 * const pets = await fetch(`${petstore.url}/pets`, { headers: { authorization: `Bearer ${petstore.keys.free}` } });
 */
export class StartedPetStoreContainer extends AbstractStartedContainer {
  /** The API's URL on the host, `http://<host>:<port>/v1`: `${petstore.url}/pets`. */
  readonly url: string;
  /** A key per plan in the main world: `keys.free`, `keys.pro`, `keys.business`. */
  readonly keys: SandboxKeys;
  /** The admin token: the admin API is at `/__admin` of the URL's origin. */
  readonly adminToken: string;

  /** @internal Made by {@link PetStoreContainer.start}. */
  constructor(started: StartedTestContainer, keys: SandboxKeys, adminToken: string) {
    super(started);
    const host = started.getHost();
    this.url = `http://${host.includes(':') ? `[${host}]` : host}:${started.getMappedPort(PORT)}/v1`;
    this.keys = keys;
    this.adminToken = adminToken;
  }

  /**
   * Opens a sandbox: a world of its own in this container (pets, ids from 1, quotas, clock, faults,
   * journal) with its own keys, the controls of petstore-service/playwright's fixture, and
   * `delete()`. Give one to each test, and tests sharing the container never see each other.
   *
   * @example
   * const sandbox = await petstore.sandbox();
   * try { await sandbox.seed([{ name: 'Rex', categoryId: 1 }]); } finally { await sandbox.delete(); }
   */
  sandbox(): Promise<PetstoreSandbox & { delete(): Promise<void> }> {
    return openRemoteSandbox({ url: this.url, adminToken: this.adminToken });
  }
}
