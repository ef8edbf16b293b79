/** Boundary probes read off an OpenAPI document: for every bounded parameter and body field, the values either side of each bound and whether the schema allows them. */

/** A JSON object of the document. */
type Node = Record<string, unknown>;

/** One value to try in one place, and whether the document allows it there. */
export interface Probe {
  /** Dotted as the API's `details` name it: `petId`, `generate.count`, `0.name`. */
  readonly field: string;
  /** The value as JSON text (a body) or as sent (a parameter): exact, even past 2^53. */
  readonly text: string;
  readonly allowed: boolean;
  /** Which bound it tries, for the failure message: `maximum`, `maxLength + 1`. */
  readonly bound: string;
  /** True when the value is a JSON string in a body (a date-time starts with a digit or a sign too). */
  readonly string?: boolean;
}

/**
 * Texts at the edges of the patterns the documents use, each judged by the pattern itself: signed
 * and far years (`-000000` is none), days the calendar lacks, leap days, the Date range's ends, and
 * the journal filters' odd corners Schemathesis found (`status=0`, `method=00000`, `path=/%00`).
 */
const PATTERN_EDGES = [
  '-000000-04-01T00:00:00Z',
  '+000000-02-29T00:00:00Z',
  '-969650-11-31T22:49:00+18:02',
  '-969650-11-30T22:49:00+18:02',
  '+999999-12-31T23:59:59.999999999-23:59',
  '-999999-01-01T00:00:00+23:59',
  '+397271-11-30T21:24:58Z',
  '-301902-07-17T23:45:00.709-21:55',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-19T23:59:59.999Z',
  '2026-11-31T00:00:00Z',
  '2100-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '0',
  '999',
  '1000',
  '00000',
  '/%00',
  '73844208303',
  '999999999999999',
  '1000000000000000',
];

const at = (document: Node, ref: string): Node =>
  ref
    .slice(2)
    .split('/')
    .reduce<Node>((node, key) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')] as Node, document);

/** `schema` with its `$ref` followed. */
export const resolve = (document: Node, schema: Node): Node => (typeof schema.$ref === 'string' ? resolve(document, at(document, schema.$ref)) : schema);

/** The next double above (`+1`) or below (`-1`) `x`: the first value past a bound that is not an integer. */
function nextDouble(x: number, direction: 1 | -1): number {
  if (x === 0) return direction * Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + BigInt((x > 0 ? 1 : -1) * direction));
  return view.getFloat64(0);
}

/**
 * The probes of one bounded schema: each bound, the value on it and the first value past it. An
 * integer's neighbours are counted in BigInt, so 2^53-1's first refused value is 9007199254740992.
 *
 * @example
 * probesOf('limit', { type: 'integer', minimum: 1, maximum: 100 }); // 1 and 100 allowed, 0 and 101 not
 */
export function probesOf(field: string, schema: Node): Probe[] {
  const probes: Probe[] = [];
  const add = (text: string, allowed: boolean, bound: string) => probes.push({ field, text, allowed, bound });
  if (schema.type === 'integer') {
    for (const [key, step] of [
      ['minimum', -1n],
      ['maximum', 1n],
    ] as const) {
      if (typeof schema[key] !== 'number') continue;
      const bound = BigInt(schema[key] as number);
      add(String(bound), true, key);
      add(String(bound + step), false, `${key} ${step > 0 ? '+' : '-'} 1`);
    }
  }
  if (schema.type === 'number') {
    for (const [key, direction] of [
      ['minimum', -1],
      ['maximum', 1],
    ] as const) {
      if (typeof schema[key] !== 'number') continue;
      add(String(schema[key]), true, key);
      add(String(nextDouble(schema[key] as number, direction)), false, `the next double past ${key}`);
      // The next integer as a client writes it: past 2^53 a parser reads it as the bound itself, served though refused.
      if (Number.isInteger(schema[key])) add(String(BigInt(schema[key] as number) + BigInt(direction)), false, `${key} ${direction > 0 ? '+' : '-'} 1`);
    }
  }
  if (schema.type === 'string' && typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    for (const text of PATTERN_EDGES) probes.push({ field, text, allowed: pattern.test(text), bound: 'pattern', string: true });
  }
  // A pattern says more than a length: the lengths are probed where the text is free.
  if (schema.type === 'string' && schema.pattern === undefined) {
    if (typeof schema.minLength === 'number' && schema.minLength > 0) {
      add('a'.repeat(schema.minLength), true, 'minLength');
      add('a'.repeat(schema.minLength - 1), false, 'minLength - 1');
    }
    if (typeof schema.maxLength === 'number') {
      add('a'.repeat(schema.maxLength), true, 'maxLength');
      add('a'.repeat(schema.maxLength + 1), false, 'maxLength + 1');
    }
  }
  return probes;
}

/** Whether `value` is of the JSON type `schema` names (no type: any). */
function fits(document: Node, schema: Node, value: unknown): boolean {
  const resolved = resolve(document, schema);
  if ('const' in resolved) return resolved.const === value;
  switch (resolved.type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/**
 * The probes of a body: each bounded field that `sample` (a valid body) holds, walked with it,
 * through `$ref`s, object properties, the first item of an array and the `anyOf`/`oneOf` branch the
 * sample takes. `allOf` is not walked: its rules hold only with other fields, as a body's do.
 *
 * @example
 * bodyProbes(document, schemaOfNewPet, { name: 'Rex', categoryId: 1 }); // name's lengths, categoryId's range
 */
export function bodyProbes(document: Node, schema: Node, sample: unknown, path: readonly (string | number)[] = []): Probe[] {
  const resolved = resolve(document, schema);
  const probes = path.length > 0 ? probesOf(path.join('.'), resolved) : [];
  const branches = (resolved.anyOf ?? resolved.oneOf) as Node[] | undefined;
  for (const branch of branches ?? []) if (fits(document, branch, sample)) probes.push(...bodyProbes(document, branch, sample, path));
  if (Array.isArray(sample) && resolved.items && sample.length > 0) probes.push(...bodyProbes(document, resolved.items as Node, sample[0], [...path, 0]));
  if (typeof sample === 'object' && sample !== null && !Array.isArray(sample) && resolved.properties) {
    for (const [key, property] of Object.entries(resolved.properties as Record<string, Node>)) {
      if (key in sample) probes.push(...bodyProbes(document, property, (sample as Node)[key], [...path, key]));
    }
  }
  return probes;
}

/**
 * `sample` as JSON text with the value at `field` replaced by `text` as written, so an integer past
 * 2^53 reaches the server exactly as a client could send it.
 *
 * @example
 * withValue({ generate: { count: 1 } }, 'generate.count', '10001'); // '{"generate":{"count":10001}}'
 */
export function withValue(sample: unknown, field: string, text: string, isString: boolean): string {
  const copy = structuredClone(sample) as Node;
  const keys = field.split('.');
  const parent = keys.slice(0, -1).reduce<Node>((node, key) => node[key] as Node, copy);
  const MARK = '\u0000probe\u0000';
  parent[keys.at(-1)!] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), isString ? JSON.stringify(text) : text);
}
