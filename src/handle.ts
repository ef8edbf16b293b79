/** The request path as one function: what createHandle builds, and what faults, the journal and the admin API wrap. */
import type { PetStoreContext } from './edge/context.ts';

/** One request in, one response out: the handler before it becomes a `PetStore`. */
export type Handle = (request: Request, context: PetStoreContext) => Promise<Response>;
