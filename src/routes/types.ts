/** What an operation receives and what a route declares: the shapes shared by src/routes. */
import type { Reply } from '../errors.ts';
import type { ResolvedOptions } from '../options.ts';
import type { Caller } from '../pipeline/auth.ts';
import type { HostBody } from '../pipeline/edge.ts';

/** Everything an operation may use to answer one request. */
export interface OperationContext {
  readonly request: Request;
  /** The body, when the host's own parser already read it from the request. */
  readonly body: HostBody | undefined;
  /** The query of the request target. */
  readonly query: URLSearchParams;
  /** Where URLs this API writes start: `publicUrl`, or the base path (a relative URL). */
  readonly base: string;
  /** Path parameters by name, still raw strings. */
  readonly params: Readonly<Record<string, string>>;
  readonly options: ResolvedOptions;
  /** The authenticated caller; absent only on public routes. */
  readonly caller?: Caller;
}

/** Answers one request; throws an ApiError for anything a client must be told. */
export type Operation = (context: OperationContext) => Promise<Reply>;

/** One path under the base path and what it serves. */
export interface Route {
  /** Path segments after the base path; a `{name}` segment captures a parameter. */
  readonly path: string;
  /** The operation for each method. `HEAD` and `OPTIONS` are derived. */
  readonly methods: Readonly<Partial<Record<'GET' | 'POST', Operation>>>;
  /** Served without an API key (the OpenAPI document). */
  readonly public?: boolean;
  /** Headers every response on this path carries, errors included (deprecation notices), given the {@link OperationContext.base}. */
  readonly headers?: (base: string) => Readonly<Record<string, string>>;
}
