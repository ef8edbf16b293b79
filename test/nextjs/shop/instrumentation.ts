/** The shop's telemetry, as Next.js loads it at start: @vercel/otel, whose fetch instrumentation forwards the incoming request's context (W3C tracecontext and baggage) to the API's origin. */
import { registerOTel } from '@vercel/otel';

/**
 * Registers OpenTelemetry when the server starts. Context goes out only to the origins listed in
 * `propagateContextUrls` (by default only Vercel's own deployment URLs), so the API's is named here.
 *
 * @example
 * // Next.js calls it once per server process; the app never does.
 * register();
 */
export function register(): void {
  registerOTel({
    serviceName: 'pet-shop-next',
    instrumentationConfig: { fetch: { propagateContextUrls: [new URL(process.env.PETSTORE_API_URL ?? 'http://localhost').origin] } },
  });
}
