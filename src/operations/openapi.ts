/** GET /openapi.json: the generated OpenAPI document, serialized once per base. */
import { openApiDocument } from './openapi-document.ts';
import type { Operation } from './types.ts';

/**
 * Serves the document with its `servers` where this request found the API (the base path under
 * any mount prefix, or `publicUrl`). It changes with nothing else, so it is serialized once per
 * base: a host mounts an API under one or two prefixes, not more.
 */
export function openApiOperation(): Operation {
  const documents = new Map<string, string>();
  return async ({ base }) => {
    let json = documents.get(base);
    if (json === undefined) documents.set(base, (json = JSON.stringify(openApiDocument(base))));
    return { status: 200, json };
  };
}
