/** Who may read `/metrics`: a request that declares a body is refused unread, each address has a budget like a keyless caller's, and with `--metrics-token` the token is asked for. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  ApiError,
  anonymousSubject,
  bearerToken,
  createCallerAddress,
  createRateLimiter,
  memoryLimitStore,
  type ProxyHeader,
  type Quota,
  type RequestView,
} from '../src/index.ts';

/**
 * A scrape budget per address: a keyless caller's minute (the free plan's 60), and a day that a
 * scrape every second still fits, since Prometheus scrapes all day (the free plan's 1,000 would
 * stop a 15 s scrape before noon).
 *
 * @example
 * METRICS_QUOTA.perMinute; // 60
 */
export const METRICS_QUOTA: Quota = { perMinute: 60, perDay: 86_400 };

/** Refusals past the budget in one minute before an address is banned, and for how long: the API's defaults (`banThreshold`, `banDurationMs`). */
const BAN = { banThreshold: 10, banDurationMs: 15 * 60_000 };
/** The `ipv6Subnet` option's default: an IPv6 caller is its /56, as for the API. */
const IPV6_SUBNET = 56;

/**
 * What {@link metricsAccess} reads of the command's settings.
 *
 * @example
 * const settings: MetricsAccessSettings = { metricsToken: undefined, trustProxy: 0, proxyHeader: 'x-forwarded-for' };
 */
export interface MetricsAccessSettings {
  /** The Bearer token a scrape must carry; none for a scrape without one. */
  readonly metricsToken: string | undefined;
  /** Whose forwarding headers to believe when naming the address, as for the API (`--trust-proxy`, `--proxy-header`). */
  readonly trustProxy: number | readonly string[];
  readonly proxyHeader: ProxyHeader;
}

/**
 * How a scrape was ruled on: the quota headers every answer carries, and the error it is refused
 * with, if it is.
 *
 * @example
 * const ruling: ScrapeRuling = { headers: { 'X-RateLimit-Limit': '60' } };
 */
export interface ScrapeRuling {
  readonly headers: Readonly<Record<string, string>>;
  readonly refusal?: ApiError;
}

const NO_TOKEN_MESSAGE = '/metrics needs Authorization: Bearer <the metrics token>.';

/**
 * The rule for who may scrape: every request counts against its address in a limit store of its
 * own (so scraping spends no caller's API budget, and a caller the API banned still scrapes), with
 * the API's limiter, its 429s and bans; then, with a token set, a request without it is a 401.
 * Counting first bounds token guesses as the budget bounds key guesses.
 *
 * @example
 * const rule = metricsAccess({ metricsToken: 'metrics-token-0123456789', trustProxy: 0, proxyHeader: 'x-forwarded-for' });
 * const { headers, refusal } = await rule(req);
 */
export function metricsAccess(settings: MetricsAccessSettings, now: () => number = Date.now): (req: IncomingMessage) => Promise<ScrapeRuling> {
  const limit = createRateLimiter({ limitStore: memoryLimitStore(), now, ...BAN });
  const callerAddress = createCallerAddress({ clientAddress: undefined, trustProxy: settings.trustProxy, proxyHeader: settings.proxyHeader });
  const expected = settings.metricsToken === undefined ? undefined : digest(settings.metricsToken);
  return async (req) => {
    const address = callerAddress(headerView(req), { clientAddress: req.socket.remoteAddress });
    const { headers, refusal } = await limit(anonymousSubject(address, IPV6_SUBNET), METRICS_QUOTA);
    if (refusal || expected === undefined) return refusal ? { headers, refusal } : { headers };
    const given = bearerToken(req.headers.authorization ?? null);
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return { headers };
    const unauthorized = new ApiError({
      status: 401,
      code: 'unauthorized',
      message: NO_TOKEN_MESSAGE,
      headers: { 'WWW-Authenticate': 'Bearer realm="petstore-metrics"' },
    });
    return { headers, refusal: unauthorized };
  };
}

/** Equal-length digests, so the comparison takes the same time whatever the token's length or first wrong character. */
const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * Whether `req` says a body follows (`Content-Length` above 0, or any `Transfer-Encoding`, RFC
 * 9112 §6.1): `/metrics` takes none, and refuses it before reading a byte.
 *
 * @example
 * if (declaresBody(req)) res.setHeader('Connection', 'close');
 */
export function declaresBody(req: Pick<IncomingMessage, 'headers'>): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && !/^0*$/.test(length.trim()));
}

/** The headers of `req` as the caller-address rule reads them; it asks for nothing else here (no `clientAddress` option). */
function headerView(req: IncomingMessage): RequestView {
  const get = (name: string) => {
    const value = req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : String(value);
  };
  return {
    method: req.method ?? 'GET',
    url: `http://localhost${req.url ?? '/'}`,
    headers: { get, has: (name) => get(name) !== null },
    body: null,
    toRequest: () => new Request(`http://localhost${req.url ?? '/'}`, { method: req.method ?? 'GET' }),
  };
}
