/** Generated pets are byte-identical in the four runtimes a fake backend runs in: the test kit, the command, the service worker in Chromium, and workerd. */
// @module-tag chromium (skipped without Chromium, failed under CI: test/helpers/system-parts.ts)
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedPetStoreWorker } from '../../runtimes/browser/index.ts';
import { createTestPetStore } from '../../testing/index.ts';
import { runCli } from '../helpers/cli.ts';
import { startWorker } from '../workers/workerd.ts';
import { launchFreshProfile, workerSite } from './browser.ts';

const ADMIN = 'admin-token-0123456789';
/** Enough pets to reach every name list, title and status, and a seed far from the default. */
const GENERATE = { generate: { count: 500, seed: 3_141_592_653 } };

const SERVICE_WORKER = "import { servePetStoreInWorker } from './runtimes/service-worker/index.ts'; servePetStoreInWorker();";
const WORKER =
  "import { petStoreWorker } from './runtimes/workers/index.ts'; const petstore = petStoreWorker(); export const { PetStoreFake } = petstore; export default petstore;";

/** The seeded pets as the admin API's 201 says them: its body's text. */
async function seededOverHttp(origin: string): Promise<string> {
  const response = await fetch(`${origin}/__admin/seed`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(GENERATE),
  });
  expect(response.status).toBe(201);
  return response.text();
}

let site: Awaited<ReturnType<typeof workerSite>>;
beforeAll(async () => {
  site = await workerSite(SERVICE_WORKER);
}, 60_000);
afterAll(() => site?.close());

describe('{"generate": {"count": 500, "seed": 3141592653}}', () => {
  it('stores byte-identical pets in the test kit, the command, the service worker in Chromium and workerd', async () => {
    const inProcess = JSON.stringify(await createTestPetStore().seed(GENERATE));

    const cli = runCli(['--port', '0', '--quiet', '--admin-token', ADMIN]);
    while (!/listening on (\S+)/.test(cli.stdout())) await once(cli.child.stdout!, 'data');
    const command = await seededOverHttp(new URL(/listening on (\S+)/.exec(cli.stdout())![1]!).origin);

    const chromium = await launchFreshProfile();
    let serviceWorker: string;
    try {
      const page = await chromium.context.newPage();
      await page.goto(`${site.origin}/`);
      serviceWorker = await page.evaluate(async (generate) => {
        const started = await (window as unknown as { started: Promise<StartedPetStoreWorker> }).started;
        return JSON.stringify(await started.seed(generate));
      }, GENERATE);
    } finally {
      await chromium.close();
    }

    const worker = await startWorker(WORKER, {
      bindings: { PETSTORE_API_KEYS: 'main-key-0123456789:pro', PETSTORE_ADMIN_TOKEN: ADMIN },
      durableObjects: { PETSTORE_FAKE: 'PetStoreFake' },
    });
    let workerd: string;
    try {
      workerd = await seededOverHttp(worker.origin.origin);
    } finally {
      await worker.dispose();
    }

    expect(JSON.parse(inProcess)).toHaveLength(500);
    expect({ command, serviceWorker, workerd }).toEqual({ command: inProcess, serviceWorker: inProcess, workerd: inProcess });
  }, 120_000);
});
