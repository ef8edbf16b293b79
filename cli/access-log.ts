/** The petstore-service command's access log: one line per answered request, told by the composition's observer (no Response needed, so node:http keeps its direct path). */
import { redactSecrets } from '../controls/index.ts';
import { pathAndQuery, type Answered } from '../src/index.ts';

/** `text` for people (`GET /v1/pets?limit=7 200 1.2ms 127.0.0.1`), `json` for log collectors. */
export type LogFormat = 'text' | 'json';

const LOG_FORMATS: readonly string[] = ['text', 'json'] satisfies LogFormat[];

/** The format `--log` and `--quiet` ask for, `undefined` for no log, or an Error in plain words. */
export function readLogFormat(log: string | undefined, quiet: boolean): LogFormat | undefined {
  if (quiet && log !== undefined) throw new Error('--quiet and --log cannot be used together: --quiet prints no access log');
  if (quiet) return undefined;
  if (log !== undefined && !LOG_FORMATS.includes(log)) throw new Error(`--log must be "text" or "json", got "${log}"`);
  return (log ?? 'text') as LogFormat;
}

/**
 * The observer that writes one line per answer: method, path with query, status,
 * milliseconds (to 0.1) and the caller's address (`-` when unknown). Never a header value, and
 * never a key: one of `keys`, or a sandbox key, misplaced in the path or query (in any spelling
 * the journal redacts: typed in any case, percent-encoded once or more, JSON-escaped, in base64) is
 * written as `[redacted]`. In a text line, what a client may have written
 * (method, path, an address a `clientAddress` reads from a header) has every space, control or
 * non-ASCII character percent-encoded ({@link escapeField}): one field stays one field, one line one line.
 * A JSON line carries `trace`, the request's trace id, when telemetry records the request; a text
 * line never does.
 *
 * @example
 * const observe = accessLog('text', ['my-key-0123'], lineWriter(process.stdout));
 * // GET /v1/pets?key=[redacted] 401 0.4ms 127.0.0.1
 */
export function accessLog(
  format: LogFormat,
  keys: Iterable<string>,
  write: (line: string) => void,
): (answered: Pick<Answered, 'request' | 'status' | 'ms' | 'clientAddress' | 'traceId'>) => void {
  const redact = redactSecrets(keys);
  return ({ request, status, ms, clientAddress, traceId }) => {
    const { path: pathOnly, query } = pathAndQuery(request.url);
    const path = redact(query === '' ? pathOnly : `${pathOnly}?${query}`);
    const tenths = Math.round(ms * 10) / 10;
    if (format === 'text') {
      write(
        `${escapeField(request.method)} ${escapeField(path)} ${status} ${tenths.toFixed(1)}ms ${clientAddress === undefined ? '-' : escapeField(clientAddress)}`,
      );
      return;
    }
    const time = new Date().toISOString();
    const line = { time, method: request.method, path, status, ms: tenths, caller: clientAddress ?? null };
    write(JSON.stringify(traceId === undefined ? line : { ...line, trace: traceId }));
  };
}

/** Characters a text line's field may not hold as they are: a space or control would start a field or a line of the client's own. */
const UNSAFE = /[^\x21-\x7e]/;
const ENCODER = new TextEncoder();

/**
 * `text` with every character outside visible ASCII percent-encoded as UTF-8 (`%20`, `%0A`,
 * `%C3%A9`); the text itself when it has none, which is nearly always and costs one regex test
 * per field. A lone surrogate is written `%EF%BF%BD`, as `TextEncoder` would.
 *
 * @example
 * escapeField('203.0.113.5 (admin login ok)'); // '203.0.113.5%20(admin%20login%20ok)'
 */
export function escapeField(text: string): string {
  if (!UNSAFE.test(text)) return text;
  let escaped = '';
  for (const char of text) {
    if (!UNSAFE.test(char)) escaped += char;
    else for (const byte of ENCODER.encode(char)) escaped += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return escaped;
}

/** Where the log's lines go: collected and written in batches, and the rest when the process exits. */
interface LineSink {
  write(text: string): unknown;
}

/**
 * How long a line may wait: under load one write then carries hundreds of lines. A write at the
 * end of every event-loop turn (the batch before) carried one to three lines at 10 connections,
 * and cost more CPU a line than this writer (`node bench/log-lines.mjs`; BENCHMARKS.md, Findings:
 * the access log wrote once per event-loop turn). 50 ms still looks live in `tail -f`.
 */
export const FLUSH_AFTER_MS = 50;
/** Text that is written at once, whatever the time: a burst never holds more in memory. */
export const FLUSH_AT_CHARS = 64 * 1024;

/**
 * A `write` for {@link accessLog} that batches: lines are written together {@link FLUSH_AFTER_MS}
 * after the first of them, or once {@link FLUSH_AT_CHARS} wait. Lines still waiting when the
 * process exits are written then (stdout to a file, terminal or pipe is synchronous on Linux, so
 * they are not lost); a process killed with SIGKILL loses at most the last 50 ms of lines.
 */
export function lineWriter(sink: LineSink): (line: string) => void {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink.write(text);
  };
  process.on('exit', flush);
  return (line) => {
    pending += `${line}\n`;
    if (pending.length >= FLUSH_AT_CHARS) flush();
    // Unref'd: a waiting line never keeps the process alive (it is written on exit).
    else if (timer === undefined) timer = setTimeout(flush, FLUSH_AFTER_MS).unref();
  };
}
