/**
 * The service worker's OpenAPI schemas converted at build time: an esbuild plugin (tsup.config.ts,
 * the worker `init` writes) that replaces src/operations/openapi-schemas.ts with its result as a
 * literal, so the worker carries no JSON Schema converter (@valibot/to-json-schema, 3.5 kB of the
 * worker's gzipped size).
 */
import type { Plugin } from 'esbuild';
import { openApiSchemas } from '../src/operations/openapi-schemas.ts';

/** The module replaced. */
const REPLACED = /[\\/]src[\\/]operations[\\/]openapi-schemas\.ts$/;

/**
 * The module that stands in for src/operations/openapi-schemas.ts: `openApiSchemas()` returns the
 * schemas as a literal, a new object each call as the converter makes. The converter's output is
 * plain JSON and depends on no option (the document varies with its `servers` alone, which
 * src/operations/openapi-document.ts fills in at run time), so the worker serves the library's
 * document to the byte (test/unit/openapi-prebuilt.test.ts, test/browser/init-start.test.ts).
 *
 * @example
 * const { openApiSchemas } = await import(`data:text/javascript,${encodeURIComponent(prebuiltOpenApiModule())}`);
 */
export function prebuiltOpenApiModule(): string {
  return `export const openApiSchemas = () => (${JSON.stringify(openApiSchemas())});\n`;
}

/**
 * The plugin, for the worker's build only: the library, and every test run from the sources, convert at run time.
 *
 * @example
 * const workerTemplate: Options = { entry: { worker: 'runtimes/service-worker/worker.ts' }, esbuildPlugins: [prebuiltOpenApiPlugin] };
 */
export const prebuiltOpenApiPlugin: Plugin = {
  name: 'prebuilt-openapi-schemas',
  setup(build) {
    build.onLoad({ filter: REPLACED }, () => ({ loader: 'js', contents: prebuiltOpenApiModule() }));
  },
};
