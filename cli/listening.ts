/** Where the command listens, as its banner says it: the address it is bound to, and what that exposes the admin API to. */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { DOCS_URL, type WarningCode } from '../src/index.ts';

/**
 * The command's address: its URL with the address it is bound to, that address, and whether it is
 * loopback only, every interface (`0.0.0.0`, `::`) or some other address.
 *
 * @example
 * const listening: Listening = { url: 'http://0.0.0.0:8080/v1', address: '0.0.0.0', reach: 'every interface' };
 */
export interface Listening {
  readonly url: string;
  readonly address: string;
  readonly reach: 'loopback' | 'every interface' | 'beyond loopback';
}

/**
 * What the command listens on, from the URL `serve` reports and the `--host` asked for. `serve`
 * names a wildcard bind `localhost`, a URL a client on this machine can open; the banner must say
 * what actually listens, so it names the wildcard.
 *
 * @example
 * listeningOn('http://localhost:8080/v1', '0.0.0.0'); // { url: 'http://0.0.0.0:8080/v1', address: '0.0.0.0', reach: 'every interface' }
 * listeningOn('http://127.0.0.1:8080/v1', '127.0.0.1').reach; // 'loopback'
 */
export function listeningOn(servedUrl: string, host: string): Listening {
  const { hostname } = new URL(servedUrl);
  if (hostname === 'localhost') {
    const address = isIP(host) === 0 ? '0.0.0.0' : host;
    const url = servedUrl.replace('//localhost:', `//${isIP(address) === 6 ? `[${address}]` : address}:`);
    return { url, address, reach: 'every interface' };
  }
  const address = hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
  return { url: servedUrl, address, reach: loopback ? 'loopback' : 'beyond loopback' };
}

/** The code of the warning {@link adminExposure} gives: docs/errors.md#petstore_admin_not_loopback. */
const NOT_LOOPBACK: WarningCode = 'PETSTORE_ADMIN_NOT_LOOPBACK';

/**
 * The banner's admin line, and the warning to tell first when the admin API listens beyond this
 * machine: anyone who can reach it can then try tokens (each address is banned after a few wrong
 * ones, but addresses are many).
 *
 * @example
 * adminExposure(listeningOn('http://localhost:8080/v1', '0.0.0.0')).warning; // 'warning PETSTORE_ADMIN_NOT_LOOPBACK: the admin API listens on every interface (0.0.0.0), …'
 */
export function adminExposure(listening: Listening): { readonly line: string; readonly warning?: string } {
  const { url, address, reach } = listening;
  const line = `Admin API on ${new URL('/__admin', url).href}${beyondLoopback(listening)} (Authorization: Bearer <the admin token>)`;
  if (reach === 'loopback') return { line };
  const on = reach === 'every interface' ? `every interface (${address})` : `${address}, not loopback only`;
  const warning =
    `warning ${NOT_LOOPBACK}: the admin API listens on ${on}, so anyone who can reach it can try admin tokens and, with the right one, ` +
    `reset, seed and read the request journal; bind --host 127.0.0.1 unless other machines must reach it. See ${DOCS_URL}/errors.md#petstore_admin_not_loopback`;
  return { line, warning };
}

/**
 * The banner's `--metrics` line: where Prometheus scrapes, and whether it asks for a token
 * (`--metrics-token`) or takes none.
 *
 * @example
 * metricsExposure(listeningOn('http://localhost:8080/v1', '127.0.0.1'), '/metrics', false); // 'Metrics for Prometheus on http://localhost:8080/metrics (no key: …)'
 */
export function metricsExposure(listening: Listening, path: string, withToken: boolean): string {
  const access = withToken ? 'Authorization: Bearer <the metrics token>' : 'no key: anyone who reaches the port can read them';
  return `Metrics for Prometheus on ${new URL(path, listening.url).href}${beyondLoopback(listening)} (${access})`;
}

/** What a banner line adds when the server listens beyond this machine: where, so no one mistakes it for loopback. */
function beyondLoopback({ address, reach }: Listening): string {
  if (reach === 'every interface') return ', listening on every interface';
  return reach === 'beyond loopback' ? `, listening on ${address}, beyond loopback` : '';
}
