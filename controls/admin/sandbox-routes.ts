/** The admin API's `/__admin/sandboxes` routes: open, list, read and delete sandboxes; each one's own admin routes sit below its id. */
import { ApiError, parseInput, pathAndQuery, type Reply } from '../../src/index.ts';
import type { AdminOperation } from './admin-routes.ts';
import { newSandboxSchemaFor } from '../sandboxes/sandbox-schemas.ts';
import type { Sandbox, SandboxWorlds, Sandboxes } from '../sandboxes/sandboxes.ts';

/**
 * A sandbox as the admin API shows it: its id, its keys, its selector, its times (real time, ISO),
 * and, when its world is here, how many pets it holds and exchanges its journal keeps (counted when
 * asked: the listing is an admin call, the request path pays nothing for it).
 */
async function shown({ id, keys, selector, createdAt, lastUsedAt, controls }: Sandbox, worlds: SandboxWorlds) {
  const times = { createdAt: new Date(createdAt).toISOString(), lastUsedAt: new Date(lastUsedAt).toISOString() };
  // A world that lives elsewhere (Workers) is not counted here: its pets and journal are in its own object.
  if (worlds === 'elsewhere') return { id, keys, selector, ...times };
  return { id, keys, selector, ...times, pets: (await controls.pets()).length, requests: controls.requests.length };
}

/**
 * The 404 of a sandbox id no sandbox has (any more).
 *
 * @example
 * if (!sandboxes.get(id)) throw noSuchSandbox(id);
 */
export function noSuchSandbox(id: string): ApiError {
  return new ApiError({
    status: 404,
    code: 'not_found',
    message: `There is no sandbox ${JSON.stringify(id)}: it was deleted, idle too long, or never opened; GET /__admin/sandboxes lists them.`,
  });
}

/** The 409 when `max` sandboxes are open: it names the cap and the two ways past it. */
function tooMany(max: number): Reply {
  const message =
    `There are already ${max} sandboxes, the most at once (--sandboxes, or the admin option sandboxes): ` +
    'delete one with DELETE /__admin/sandboxes/{id}, or raise the cap.';
  return { status: 409, body: { code: 'too_many_sandboxes', message, status: 409 } };
}

/** A POST with no body at all (curl -X POST): an empty sandbox, as `{}` asks. */
const isBodiless = ({ headers }: Request) =>
  !headers.has('content-type') && !headers.has('transfer-encoding') && (headers.get('content-length') ?? '0') === '0';

/**
 * The routes of the sandboxes themselves; what is below `/sandboxes/{id}/` is each sandbox's own admin API (see admin.ts).
 *
 * @example
 * const match = matchRoute(sandboxRoutes(sandboxes), '/sandboxes/k3j9x2m1qa0b');
 */
export function sandboxRoutes(sandboxes: Sandboxes): { path: string; methods: Partial<Record<string, AdminOperation>> }[] {
  return [
    {
      path: '/sandboxes',
      methods: {
        GET: async () => ({ status: 200, body: await Promise.all(sandboxes.list().map((sandbox) => shown(sandbox, sandboxes.worlds))) }),
        async POST({ request, body }) {
          const input = isBodiless(request) ? {} : await body();
          const { seed } = parseInput(newSandboxSchemaFor(input), input, 'body');
          const sandbox = sandboxes.open();
          if (!sandbox) return tooMany(sandboxes.max);
          // A seed refused (past the bound on pets) opens nothing: the sandbox goes with it.
          if (seed !== undefined) {
            try {
              await sandbox.controls.seed(seed);
            } catch (refusal) {
              sandboxes.delete(sandbox.id);
              throw refusal;
            }
          }
          const { id, keys, selector } = sandbox;
          return { status: 201, body: { id, keys, selector }, headers: { Location: `${pathAndQuery(request.url).path}/${id}` } };
        },
      },
    },
    {
      path: '/sandboxes/{id}',
      methods: {
        GET: async ({ params }) => {
          const sandbox = sandboxes.get(params.id!);
          if (!sandbox) throw noSuchSandbox(params.id!);
          return { status: 200, body: await shown(sandbox, sandboxes.worlds) };
        },
        DELETE: ({ params }) => {
          if (!sandboxes.delete(params.id!)) throw noSuchSandbox(params.id!);
          return { status: 204 };
        },
      },
    },
  ];
}
