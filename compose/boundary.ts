/** The outermost layer of every product: the JSON error boundary, and the one place that tells the hooks and the access log about each answer. */
import {
  createCallerAddress,
  errorReply,
  isConnectionReset,
  pathAndQuery,
  render,
  type AddressFinder,
  type Answer,
  type Answered,
  type ApiRequest,
  type Handle,
  type Host,
  type RequestNotes,
  type RequestObservation,
  type ResolvedOptions,
  type StoreTelemetry,
} from '../src/index.ts';
import { redactSecrets, type Redactor } from '../controls/without-admin.ts';

/** Sees every answer as it leaves, without needing a Response: the command's access log. */
export type Observer = (answered: Answered) => void;

/**
 * `handle` inside the boundary: whatever a layer within throws (the admin API, the journal, a
 * fault, host code) is answered as the API answers a failure, a JSON 500 whose cause goes to
 * `onError`, never a stack trace. Around it the watchers: `onRequest` as a request arrives,
 * `onResponse`, `observe` and telemetry as its answer leaves. They only watch: what they throw
 * goes to `onError`, and the client's answer is the same whatever they do. With telemetry, the
 * layers within run inside the request's span and note on the host what they decided.
 *
 * @example
 * const handle = withBoundary(handleOf(createAnswer(config)), config, undefined);
 */
export function withBoundary(handle: Handle, config: ResolvedOptions, observe: Observer | undefined, telemetry?: StoreTelemetry): Handle {
  const { onRequest, onResponse, onError } = config;
  const finish = finisher(config, observe);
  return async (request, host) => {
    const start = performance.now();
    if (onRequest) watch(() => onRequest(request), onError);
    const observation = telemetry && begin(telemetry, request, onError);
    // Only an observed request has notes: unobserved, the path skips them at no cost.
    const notes: RequestNotes | undefined = observation && {};
    let response: Response;
    try {
      response = await observed(handle, request, host, observation, notes);
    } catch (error) {
      response = render(errorReply(error, onError), { head: request.method === 'HEAD', ResponseClass: host.ResponseClass });
    }
    if (onResponse || observe || observation) {
      const told =
        onResponse && (({ ms, clientAddress }: Answered) => onResponse({ request, response, ms, ...(clientAddress !== undefined && { clientAddress }) }));
      finish(request, host, start, isConnectionReset(response) ? 0 : response.status, observation, notes, told);
    }
    return response;
  };
}

/**
 * `answer` with `observe` and telemetry told of each reply: the direct node:http path. `answer`
 * itself never throws (see src/api.ts).
 *
 * @example
 * const direct = watchedAnswer(createAnswer(config), config, accessLog('text', keys, write));
 */
export function watchedAnswer(answer: Answer, config: ResolvedOptions, observe: Observer | undefined, telemetry?: StoreTelemetry): Answer {
  if (!observe && !telemetry) return answer;
  const finish = finisher(config, observe);
  /** The reply, and then the watchers told of it. */
  const watched = async (request: ApiRequest, host: Host, start: number, observation: RequestObservation | undefined) => {
    const notes: RequestNotes | undefined = observation && {};
    const reply = await observed(answer, request, host, observation, notes);
    finish(request, host, start, reply.status, observation, notes);
    return reply;
  };
  return (request, host) => {
    const observation = telemetry && begin(telemetry, request, config.onError);
    // Telemetry with nothing to record it (no provider) and no access log: answered as without them, in
    // the answer's own promise: no clock read, no notes, no address, no second async frame.
    if (!observation && !observe) return answer(request, host);
    return watched(request, host, performance.now(), observation);
  };
}

/**
 * `run` on the request, inside its observation when telemetry observes it: the layers within note
 * on the host what they decided, and the storages' calls are the span's children.
 */
function observed<R extends ApiRequest, T>(
  run: (request: R, host: Host) => Promise<T>,
  request: R,
  host: Host,
  observation: RequestObservation | undefined,
  notes: RequestNotes | undefined,
): Promise<T> {
  // Not { ...host, notes }: V8 gives that clone a hidden class of its own each time (BENCHMARKS.md, Findings: #49).
  return observation ? observation.within(() => run(request, Object.assign({}, host, { notes }))) : run(request, host);
}

/** What an unobserved request noted: nothing (telemetry alone reads notes). */
const NOTHING_NOTED: RequestNotes = Object.freeze({});

/**
 * Both ways out's last step: the one record of the answer, told to `first` (`onResponse`, which
 * needs the Response only its caller has), then telemetry, then `observe`.
 */
function finisher(config: ResolvedOptions, observe: Observer | undefined) {
  const { onError } = config;
  const callerAddress = createCallerAddress(config);
  const pathOf = redactedPath(config);
  return (
    request: ApiRequest,
    host: Host,
    start: number,
    status: number,
    observation: RequestObservation | undefined,
    notes: RequestNotes | undefined,
    first?: (answered: Answered) => void,
  ): void => {
    const answered: Answered = {
      request,
      status,
      ms: performance.now() - start,
      clientAddress: addressOrNone(callerAddress, request, host),
      notes: notes ?? NOTHING_NOTED,
      traceId: observation?.traceId,
      // A value, not a getter: a getter here gave every answer a hidden class of its own, which kept
      // the collector busy on every watched request (BENCHMARKS.md, Findings: #49).
      path: pathOf(request, host),
    };
    if (first) watch(() => first(answered), onError);
    if (observation) watch(() => observation.end(answered), onError);
    if (observe) watch(() => observe(answered), onError);
  };
}

/**
 * The path of a request as the client sent it, without its query, every key and the admin token in
 * it redacted: telemetry's `url.path`. A host that cut its mount prefix off the request (Express's
 * `app.use('/api', petstore)`) has it put back: the client asked for `/api/v1/pets`.
 */
function redactedPath(config: ResolvedOptions): (request: ApiRequest, host: Host) => string {
  // Compiled at the first answer watched: a store without hooks, telemetry or a log (every test store) never pays for it.
  let redact: Redactor | undefined;
  return (request, host) => {
    const { path } = pathAndQuery(request.url);
    const prefix = host.mountStripped && host.mountPath ? host.mountPath.replace(/\/+$/, '') : '';
    redact ??= redactSecrets([...config.apiKeys.keys(), config.admin?.token ?? '']);
    return redact(`${prefix}${path}`);
  };
}

/** The request's observation; none when opening it throws (what it throws goes to `onError`, and the request is answered unobserved). */
function begin(telemetry: StoreTelemetry, request: ApiRequest, onError: (error: unknown) => void): RequestObservation | undefined {
  try {
    return telemetry.begin(request);
  } catch (error) {
    onError(error);
    return undefined;
  }
}

/** Runs a watcher; a throw or a rejected promise goes to `onError`, and an `onError` that throws on it is ignored. */
function watch(hook: () => unknown, onError: (error: unknown) => void): void {
  const report = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // Nothing is left to tell: the answer must still go out.
    }
  };
  try {
    const result = hook();
    // An async hook's rejection would otherwise be unhandled, which ends a Node process.
    if (result instanceof Promise) result.catch(report);
  } catch (error) {
    report(error);
  }
}

/** The caller's address for the watchers. A `clientAddress` option that throws gives none here: the limits step reports the throw when it needs the address. */
function addressOrNone(callerAddress: AddressFinder, request: ApiRequest, host: Host): string | undefined {
  try {
    return callerAddress(request, host);
  } catch {
    return undefined;
  }
}
