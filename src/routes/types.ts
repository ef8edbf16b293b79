/** What an operation receives and what a route declares: the shapes shared by src/routes. */
import type { Reply } from '../errors.ts';
import type { ResolvedOptions } from '../options.ts';
import type { Plan } from '../plans.ts';
import type { Subject } from '../rate-limit/store.ts';

/** A caller whose key is configured, as authentication finds it and operations see it. */
export interface Caller {
  /** First 128 bits of the key's SHA-256, hex: names the caller without the secret. */
  readonly keyId: string;
  /** The caller's rate-limit subject, `key:<keyId>`. */
  readonly subject: Subject;
  /** The plan the key is on. */
  readonly plan: Plan;
}

/** A body the host already read: its value, or its parser's verdict when it refused the body without keeping it. */
export type HostBody = { readonly value: unknown; readonly refused?: undefined } | { readonly refused: 'too_large' | 'not_json' };

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
