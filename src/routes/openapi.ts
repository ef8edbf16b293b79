/** GET /openapi.json: the generated OpenAPI document, built once per store. */
import { buildOpenApiDocument } from '../openapi.ts';
import type { Operation } from './types.ts';

/** Serves the document for the store's options; it never changes, so it is built on first use. */
export function openApiOperation(): Operation {
  let document: Record<string, unknown> | undefined;
  return async ({ options }) => ({ status: 200, body: (document ??= buildOpenApiDocument(options)) });
}
