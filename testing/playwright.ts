/** petstore-service/playwright: Playwright's `test` with a `petstore` fixture, a sandbox of its own for each test on the fake backend the run points at. */
import {
  test as base,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestType,
} from '@playwright/test';
import { openRemoteSandbox, petstoreSettings, type PetstoreSandbox } from './sandbox-client.ts';

/**
 * Playwright's own `expect`, and the types the fixture's controls take and give, so a suite needs this one import.
 *
 * @example
 * import { expect, test, type PetstoreSandbox } from 'petstore-service/playwright';
 */
export { expect } from '@playwright/test';
export type { PetstoreSandbox, RemoteFaultRule, RemotePendingFault } from './sandbox-client.ts';
export type { SandboxKeys, RecordedExchange, Verification, Har, HarEntry, JournalFilter } from '../controls/index.ts';

/**
 * Where the sandboxes are opened, as Playwright options: `use: { petstoreUrl, petstoreAdminToken }`
 * in playwright.config.ts, or `test.use({ … })`. Unset, `PETSTORE_URL` and `PETSTORE_ADMIN_TOKEN`.
 *
 * @example
 * test.use({ petstoreUrl: 'http://127.0.0.1:8080', petstoreAdminToken: 'my-admin-token-0123' });
 */
export interface PetstoreOptions {
  /** The fake backend's root (`http://127.0.0.1:8080`) or API URL as the command prints it (`…/v1`). */
  readonly petstoreUrl: string | undefined;
  /** Its admin token (`petstore-service --admin-token <token>`). */
  readonly petstoreAdminToken: string | undefined;
  /**
   * Whether a test using `petstore` sends its browser context's requests (its pages' and
   * `page.request`'s) to its sandbox, with `baggage: petstore.sandbox=<selector>` merged into
   * `extraHTTPHeaders`; default true. False leaves them as they are, for a suite that does it itself.
   */
  readonly petstoreSelectsPages: boolean;
}

/**
 * The fixture: `petstore`, a sandbox opened for the test and deleted after it, passed or failed.
 *
 * @example
 * test('lists the seeded pet', async ({ petstore, request }) => {
 *   await petstore.seed([{ name: 'Rex', categoryId: 1 }]);
 *   await request.get(`${petstore.url}/pets`, { headers: { authorization: `Bearer ${petstore.keys.free}` } });
 * });
 */
export interface PetstoreFixtures {
  readonly petstore: PetstoreSandbox;
}

/** The test's sandbox and its browser context meet here, whichever Playwright sets up first: neither fixture needs the other, so `request` alone launches no browser and `page` alone opens no sandbox. */
interface Selection {
  selector?: string;
  select?: (selector: string) => Promise<void>;
}

/** The test's `extraHTTPHeaders` with `petstore.sandbox=<selector>` in `baggage`: the test's other members kept, its own `petstore.sandbox` replaced. */
function withSelector(headers: Readonly<Record<string, string>> = {}, selector: string): Record<string, string> {
  const isBaggage = ([name]: [string, string]) => name.toLowerCase() === 'baggage';
  const members = Object.entries(headers)
    .filter(isBaggage)
    .flatMap(([, value]) => value.split(','))
    .map((member) => member.trim())
    .filter((member) => member && member.split('=')[0]!.trim() !== 'petstore.sandbox');
  return {
    ...Object.fromEntries(Object.entries(headers).filter((entry) => !isBaggage(entry))),
    baggage: [...members, `petstore.sandbox=${selector}`].join(','),
  };
}

// Typed by hand: the inferred type names the `playwright` package, which only @playwright/test is sure to resolve from a user's project.
/**
 * Playwright's `test` with the `petstore` fixture: each test gets a fresh sandbox of the running
 * fake backend (`petstore-service --admin-token <token>`), so tests in parallel workers never share
 * pets, ids, quotas, clock, faults or journal. Its pages carry the sandbox's selector in `baggage`,
 * so an app under test that calls the API from its server with its own key reaches the test's
 * sandbox too, when it forwards baggage (OpenTelemetry does). A missing URL or token fails the test
 * at once with one line naming the environment variable and the option.
 *
 * @example
 * import { expect, test } from 'petstore-service/playwright';
 *
 * test('the next pet after three seeded ones is number 4', async ({ petstore, request }) => {
 *   await petstore.seed({ generate: { count: 3, seed: 1 } });
 *   const created = await request.post(`${petstore.url}/pets`, {
 *     headers: { authorization: `Bearer ${petstore.keys.pro}` },
 *     data: { name: 'Rex', categoryId: 1 },
 *   });
 *   expect((await created.json()).id).toBe(4);
 * });
 */
export const test: TestType<PlaywrightTestArgs & PlaywrightTestOptions & PetstoreFixtures & PetstoreOptions, PlaywrightWorkerArgs & PlaywrightWorkerOptions> =
  base.extend<PetstoreFixtures & PetstoreOptions & { _petstoreSelection: Selection }>({
    petstoreUrl: [undefined, { option: true }],
    petstoreAdminToken: [undefined, { option: true }],
    petstoreSelectsPages: [true, { option: true }],
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first parameter, an object pattern.
    _petstoreSelection: async ({}, use) => use({}),
    context: async ({ context, extraHTTPHeaders, petstoreSelectsPages, _petstoreSelection: selection }, use) => {
      if (petstoreSelectsPages) {
        selection.select = (selector) => context.setExtraHTTPHeaders(withSelector(extraHTTPHeaders, selector));
        if (selection.selector) await selection.select(selection.selector);
      }
      await use(context);
    },
    petstore: async ({ petstoreUrl, petstoreAdminToken, _petstoreSelection: selection }, use) => {
      const sandbox = await openRemoteSandbox(petstoreSettings({ petstoreUrl, petstoreAdminToken }, process.env));
      const { delete: remove, ...controls } = sandbox;
      try {
        selection.selector = sandbox.selector;
        await selection.select?.(sandbox.selector);
        await use(controls);
      } finally {
        await remove();
      }
    },
  });
