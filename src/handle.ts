/** The request path as one function: what createHandle builds, and what faults, the journal and the admin API wrap. */
import type { PetStoreContext } from './edge/context.ts';
import type { Reply } from './response/reply.ts';

/** One request in, one response out: the handler before it becomes a `PetStore`. */
export type Handle = (request: Request, context: PetStoreContext) => Promise<Response>;

/** One request in, its reply out, before it is a Response: what both a {@link Handle} and the node:http path send. */
export type Answer = (request: Request, context: PetStoreContext) => Promise<Reply>;
