/** The instrumentation scope and version telemetry reports under, in a file with no imports: the command asks for the same meter without loading OpenTelemetry's conventions. */

/**
 * The instrumentation scope spans and metrics are reported under.
 *
 * @example
 * provider.getTracer(SCOPE, VERSION);
 */
export const SCOPE = 'petstore-service';

declare const __PETSTORE_VERSION__: string | undefined;
/**
 * The package's version, which tsup writes in at build time; none when run from source (tests).
 * `typeof`, so the unbuilt sources do not throw on the missing name.
 *
 * @example
 * provider.getMeter(SCOPE, VERSION); // version '0.1.0' from the package
 */
export const VERSION: string | undefined = typeof __PETSTORE_VERSION__ === 'string' ? __PETSTORE_VERSION__ : undefined;
