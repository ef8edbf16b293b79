/** Option names checked as lru-cache checks them: an unknown one is a TypeError naming it, the nearest known one, and all of them. */

/**
 * Throws a TypeError naming the first option of `options` that is not in `known`, and the known
 * ones, as lru-cache does: a misspelt option fails at startup instead of being ignored.
 *
 * @example
 * assertKnownOptions({ prot: 80 }, ['port', 'hostname'], 'serve'); // TypeError: serve: unknown option "prot"; …
 */
export function assertKnownOptions(options: object, known: readonly string[], what: string): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${what}: options must be an object`);
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const near = nearestName(name, known);
    const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
    throw new TypeError(`${what}: unknown option "${name}"${hint}; the options are ${known.join(', ')}`);
  }
}

/**
 * The name in `known` nearest to a misspelt `name` (letter case aside, at most two edits and fewer
 * than `name` has letters), or `undefined`: the did-you-mean of options, flags and subcommands.
 *
 * @example
 * nearestName('prot', ['port', 'host']); // 'port'
 * nearestName('verbose', ['port', 'host']); // undefined
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let nearest: string | undefined;
  let least = Math.min(3, name.length);
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < least) [nearest, least] = [candidate, distance];
  }
  return nearest;
}

/** Levenshtein distance: how many single-letter edits turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
