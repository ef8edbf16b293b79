/** What an operation receives and what a route declares: the shapes shared by src/operations. */
import type { Reply } from '../response/reply.ts';
import type { ApiRequest } from './request.ts';
import type { PetStatus } from '../storage/pet.ts';
import type { PetStorage } from '../storage/pet-storage.ts';

/** The settings operations read: a slice of the resolved options, so operations never see the rest. */
export interface OperationSettings {
  readonly storage: PetStorage;
  readonly now: () => number;
  readonly maxBodyBytes: number;
  readonly defaultStatus: PetStatus | undefined;
  readonly getPetDeprecatedAt: Date;
  readonly getPetSunsetAt: Date;
}

/** A body the host already read: its value, its parser's verdict when it refused the body without keeping it, or `taken` when its stream was read and nothing passed on. */
export type HostBody = { readonly value: unknown; readonly refused?: undefined } | { readonly refused: 'too_large' | 'not_json' | 'taken' };

/** Everything an operation may use to answer one request. */
export interface OperationContext {
  readonly request: ApiRequest;
  /** The body, when the host's own parser already read it from the request. */
  readonly body: HostBody | undefined;
  /** The query of the request target. */
  readonly query: URLSearchParams;
  /** Where URLs this API writes start: `publicUrl`, or the base path under the mount prefix (a relative URL). */
  readonly base: string;
  /** Path parameters by name, still raw strings. */
  readonly params: Readonly<Record<string, string>>;
  readonly settings: OperationSettings;
  /** Names the authenticated caller's key without the secret; absent only on public routes. */
  readonly keyId: string | undefined;
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
