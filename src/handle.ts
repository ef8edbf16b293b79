/** The request path as one function, in its two forms: replies (what node:http gets written directly) and Responses (what the layers around the API wrap). */
import type { Host } from './edge/host.ts';
import type { Reply } from './response/reply.ts';

/** One request in, one response out: the handler before it becomes a `PetStore`. */
export type Handle = (request: Request, host: Host) => Promise<Response>;

/** One request in, its reply out, before it is a Response: what both a {@link Handle} and the node:http path send. */
export type Answer = (request: Request, host: Host) => Promise<Reply>;
