/** SHA-256 for the worker `init` writes, in place of @noble/hashes (its build aliases the two modules src/auth/auth.ts imports here): the same digests in a sixth of the code (1.0 kB minified against 5.9 kB, 2 kB less of the worker gzipped). */

/** The first 64 primes, whose roots give SHA-256's constants. */
const PRIMES: number[] = [];
for (let candidate = 2; PRIMES.length < 64; candidate++) if (PRIMES.every((prime) => candidate % prime !== 0)) PRIMES.push(candidate);

/**
 * The first 32 bits of the fractional part of `root`. Every constant's fraction lies at least
 * 0.0055 of its last bit from a whole number, so a root off by up to some 800 units in the last
 * place (a correct Math.cbrt is off by one at most) still gives it exactly.
 */
const fractionBits = (root: number) => ((root % 1) * 2 ** 32) >>> 0;

/** The round constants (FIPS 180-4, 4.2.2): fractions of the cube roots of the first 64 primes. */
const K = PRIMES.map((prime) => fractionBits(Math.cbrt(prime)));
/** The initial hash value (5.3.3): fractions of the square roots of the first 8 primes. */
const INITIAL = PRIMES.slice(0, 8).map((prime) => fractionBits(Math.sqrt(prime)));

const rotr = (word: number, bits: number) => (word >>> bits) | (word << (32 - bits));

/** The eight working variables of a block. */
type Words8 = [number, number, number, number, number, number, number, number];

/**
 * The SHA-256 digest of `message` (FIPS 180-4, 6.2), as `sha256` of @noble/hashes/sha2.js.
 *
 * @example
 * bytesToHex(sha256(utf8ToBytes('abc'))); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256(message: Uint8Array): Uint8Array {
  // The message, a 1 bit, zeros and its length in bits, as big-endian words filling whole 64-byte blocks.
  const words = new Uint32Array(((message.length + 72) >> 6) << 4);
  message.forEach((byte, at) => {
    words[at >> 2]! |= byte << (24 - (at & 3) * 8);
  });
  words[message.length >> 2]! |= 0x80 << (24 - (message.length & 3) * 8);
  words[words.length - 2] = message.length / 2 ** 29;
  words[words.length - 1] = message.length << 3;
  const hash = Uint32Array.from(INITIAL);
  const schedule = new Uint32Array(64);
  for (let block = 0; block < words.length; block += 16) {
    for (let t = 0; t < 64; t++) {
      const [w15, w2] = [schedule[t - 15] ?? 0, schedule[t - 2] ?? 0];
      // A Uint32Array keeps each sum's low 32 bits, as the standard's additions modulo 2^32.
      schedule[t] =
        t < 16
          ? words[block + t]!
          : (rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10)) + schedule[t - 7]! + (rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3)) + schedule[t - 16]!;
    }
    let [a, b, c, d, e, f, g, h] = [...hash] as Words8;
    for (let t = 0; t < 64; t++) {
      const t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + schedule[t]!;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, h].forEach((word, at) => {
      hash[at]! += word;
    });
  }
  // A Uint8Array keeps each value's low 8 bits.
  return Uint8Array.from({ length: 32 }, (_, at) => hash[at >> 2]! >>> (24 - (at & 3) * 8));
}

/**
 * `bytes` as lowercase hex, as `bytesToHex` of @noble/hashes/utils.js.
 *
 * @example
 * bytesToHex(new Uint8Array([0, 255])); // '00ff'
 */
export const bytesToHex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * `text` as UTF-8, as `utf8ToBytes` of @noble/hashes/utils.js.
 *
 * @example
 * utf8ToBytes('é'); // Uint8Array [195, 169]
 */
export const utf8ToBytes = (text: string): Uint8Array => new TextEncoder().encode(text);
