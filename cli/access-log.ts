/** The petstore-service command's access log: one line per answered request, told by the composition's observer (no Response needed, so node:http keeps its direct path). */
import type { Answered } from '../compose/boundary.ts';

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
 * never a key: one of `keys` misplaced in the path or query (as typed or percent-encoded) is
 * written as `[redacted]`.
 */
export function accessLog(format: LogFormat, keys: Iterable<string>, write: (line: string) => void): (answered: Answered) => void {
  const redact = keyRedactor([...keys]);
  return ({ request, status, ms, clientAddress }) => {
    const path = redact(pathOf(request.url));
    const tenths = Math.round(ms * 10) / 10;
    if (format === 'text') {
      write(`${request.method} ${path} ${status} ${tenths.toFixed(1)}ms ${clientAddress ?? '-'}`);
      return;
    }
    const time = new Date().toISOString();
    write(JSON.stringify({ time, method: request.method, path, status, ms: tenths, caller: clientAddress ?? null }));
  };
}

/** The path and query of an absolute URL, without parsing it: a URL parse per line cost more than the line's write. */
function pathOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? '/' : url.slice(slash);
}

/** Where the log's lines go: collected and written once per turn of the event loop, and the rest when the process exits. */
interface LineSink {
  write(text: string): unknown;
}

/**
 * A `write` for {@link accessLog} that batches: one write per event-loop turn instead of one per
 * request (a write is a system call; under load a turn answers several requests). Lines still
 * waiting when the process exits are written then (stdout to a file, terminal or pipe is
 * synchronous on Linux, so they are not lost).
 */
export function lineWriter(sink: LineSink): (line: string) => void {
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink.write(text);
  };
  process.on('exit', flush);
  return (line) => {
    if (pending === '') setImmediate(flush);
    pending += `${line}\n`;
  };
}

/** A function that replaces every spelling of any of `keys` in a URL's path and query with `[redacted]`. */
function keyRedactor(keys: readonly string[]): (text: string) => string {
  if (keys.length === 0) return (text) => text;
  // Longest first, so a key that contains another is replaced whole.
  const spellings = [...keys].sort((a, b) => b.length - a.length).map((key) => [...key].map(spellingsOf).join(''));
  const pattern = new RegExp(spellings.join('|'), 'g');
  return (text) => text.replace(pattern, '[redacted]');
}

/** A pattern for one character of a key: itself, or percent-encoded in either case of hex digits. */
function spellingsOf(character: string): string {
  const hex = character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
  const encoded = [...hex].map((digit) => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit)).join('');
  return `(?:${character.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')}|%${encoded})`;
}
