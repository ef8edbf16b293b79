/** The sandboxes' part of the admin document: `/__admin/sandboxes` itself, and every world route again below `/__admin/sandboxes/{id}`. */
import { jsonContent, type OpenApiObject, ref } from '../../src/index.ts';
import { getAndHead, listOf, operation, options, TOO_MANY_PETS } from './admin-openapi-parts.ts';

const TAG = 'sandboxes';
const PREFIX = '/__admin/';
/** Paths that are the server's, not a world's: not repeated per sandbox. */
const NOT_A_WORLDS = new Set(['/__admin/openapi.json']);

const ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The sandbox\u2019s id, as POST /__admin/sandboxes answered it.',
  schema: { type: 'string', pattern: '^[0-9a-z]{12}$' },
};

const NO_SUCH_SANDBOX = {
  description: 'No sandbox has this id: it was deleted, idle too long, or never opened (`not_found`).',
  content: jsonContent(ref('schemas', 'Error')),
};

/** `operationObject` with the sandbox's id as a parameter, and its 404 for an id no sandbox has. */
function ofOneSandbox(operationObject: OpenApiObject): OpenApiObject {
  const { parameters, responses } = operationObject as { parameters?: unknown[]; responses: OpenApiObject };
  // A 404 the world's route has of its own (no such fault) is said beside the sandbox's.
  const own = responses[404] as { description: string } | undefined;
  const notFound = own ? { ...NO_SUCH_SANDBOX, description: `${NO_SUCH_SANDBOX.description} ${own.description}` } : NO_SUCH_SANDBOX;
  return { ...operationObject, parameters: [ID_PARAMETER, ...(parameters ?? [])], responses: { ...responses, 404: notFound } };
}

/** `operation` of a world route, as the same route of one sandbox answers it. */
function inSandbox(operationObject: OpenApiObject): OpenApiObject {
  const { operationId, description } = operationObject as { operationId: string; description: string };
  return ofOneSandbox({ ...operationObject, operationId: `${operationId}InSandbox`, tags: [TAG], description: `${description} For the sandbox {id} alone.` });
}

/** The paths of `/__admin/sandboxes` and `/__admin/sandboxes/{id}`. */
function sandboxesThemselves(): OpenApiObject {
  const conflict = {
    description: 'The most sandboxes are open (`too_many_sandboxes`); the message names the cap.',
    content: jsonContent(ref('schemas', 'TooManySandboxes')),
  };
  const opened = operation({
    operationId: 'openSandbox',
    tag: TAG,
    summary: 'Open a sandbox.',
    description:
      'A world of its own: pets and ids from 1, quotas and bans, idempotency keys, clock, faults and journal. A request carrying one of its keys, ' +
      'or its selector with a key of the main world, lives in it; the main world is untouched. No body (or `{}`) opens it empty.',
    body: { schema: ref('schemas', 'NewSandbox'), description: '{} or {"seed": …}.' },
    success: [201, 'Its id, keys and selector.', ref('schemas', 'OpenedSandbox')],
  });
  const created = (opened.responses as OpenApiObject)[201] as OpenApiObject;
  const location = { description: 'The new sandbox: /__admin/sandboxes/{id}, under the mount path.', required: true, schema: { type: 'string' } };
  return {
    '/__admin/sandboxes': {
      ...getAndHead({
        operationId: 'listSandboxes',
        tag: TAG,
        summary: 'Every open sandbox.',
        description: 'Least recently used first.',
        success: [200, 'The sandboxes.', listOf('Sandbox')],
      }),
      post: {
        ...opened,
        // The body is optional here: a POST with none opens an empty sandbox.
        requestBody: { ...(opened.requestBody as OpenApiObject), required: false },
        responses: { ...(opened.responses as OpenApiObject), 201: { ...created, headers: { Location: location } }, 409: conflict, 507: TOO_MANY_PETS },
      },
      options: options('sandboxesOptions', TAG),
    },
    '/__admin/sandboxes/{id}': {
      ...Object.fromEntries(
        Object.entries(
          getAndHead({
            operationId: 'getSandbox',
            tag: TAG,
            summary: 'One sandbox.',
            description: 'Its keys, selector and times.',
            success: [200, 'The sandbox.', ref('schemas', 'Sandbox')],
          }),
        ).map(([method, op]) => [method, ofOneSandbox(op as OpenApiObject)]),
      ),
      delete: (() => {
        const op = operation({
          operationId: 'deleteSandbox',
          tag: TAG,
          summary: 'Delete a sandbox.',
          description: 'Requests it holds end with a 503; its keys get 401 and its routes 404 from then on.',
          success: [204, 'Done.'],
        });
        return ofOneSandbox(op);
      })(),
      options: ofOneSandbox(options('sandboxOptions', TAG)),
    },
  };
}

/**
 * `paths` (the main world's admin paths) with the sandboxes' paths added: `/__admin/sandboxes`,
 * `/__admin/sandboxes/{id}`, and each world path again below `/__admin/sandboxes/{id}/`, its
 * operations renamed `…InSandbox` and answering 404 for an id no sandbox has.
 *
 * @example
 * const document = { paths: withSandboxes({ '/__admin/reset': { post: resetOperation } }) };
 */
export function withSandboxes(paths: OpenApiObject): OpenApiObject {
  const perSandbox = Object.entries(paths)
    .filter(([path]) => !NOT_A_WORLDS.has(path))
    .map(([path, methods]) => [
      `${PREFIX}sandboxes/{id}/${path.slice(PREFIX.length)}`,
      Object.fromEntries(Object.entries(methods as OpenApiObject).map(([method, op]) => [method, inSandbox(op as OpenApiObject)])),
    ]);
  return { ...paths, ...sandboxesThemselves(), ...Object.fromEntries(perSandbox) };
}
