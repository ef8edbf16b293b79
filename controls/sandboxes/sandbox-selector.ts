/** The sandbox selector a request carries: its `Petstore-Sandbox` header, else the `petstore.sandbox` member of its W3C `baggage`, as OpenTelemetry forwards it from an app's caller. */

/** The header a client names its sandbox in, ahead of baggage. */
const SELECTOR_HEADER = 'petstore-sandbox';
/** The W3C baggage member that names a sandbox. */
const BAGGAGE_KEY = 'petstore.sandbox';

/** Optional whitespace (OWS: spaces and tabs) around a baggage member's parts. */
const trimOws = (text: string) => text.replace(/^[ \t]+|[ \t]+$/g, '');

/**
 * The `petstore.sandbox` member's value in `baggage` (W3C Baggage: `key OWS "=" OWS value *(OWS ";"
 * OWS property)`, members split by commas), percent-decoded, or `undefined` when no member has that
 * key. A value that does not decode is kept as it came: it reaches no sandbox.
 */
function fromBaggage(baggage: string): string | undefined {
  for (const member of baggage.split(',')) {
    const equals = member.indexOf('=');
    if (equals < 0 || trimOws(member.slice(0, equals)) !== BAGGAGE_KEY) continue;
    const end = member.indexOf(';', equals);
    const value = trimOws(member.slice(equals + 1, end < 0 ? undefined : end));
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * The selector `headers` carry, or `undefined` for none: `Petstore-Sandbox` wins over the
 * `petstore.sandbox` member of `baggage`; an empty value is none.
 *
 * @example
 * selectorOf(new Headers({ baggage: 'userId=7, petstore.sandbox=pssel_…' })); // 'pssel_…'
 */
export function selectorOf(headers: Headers): string | undefined {
  const header = headers.get(SELECTOR_HEADER)?.trim();
  if (header) return header;
  const baggage = headers.get('baggage');
  const value = baggage === null ? undefined : fromBaggage(baggage);
  return value || undefined;
}
