/** The worker's SHA-256 gives the digests @noble/hashes gives, which the library computes keys' ids with. */
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex as nobleHex, utf8ToBytes as nobleUtf8 } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { FUZZ_SEED, sayTheSeedOnFailure } from '../../test/helpers/fuzz-seed.ts';
import { bytesToHex, sha256, utf8ToBytes } from './sha256.ts';

const digest = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));

it('gives the standard digests of FIPS 180-4: the empty message, "abc", and two blocks', () => {
  expect(digest('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  expect(digest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(digest('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
});

it('gives the digest @noble/hashes gives for every length from 0 to 200 bytes, across each block boundary', () => {
  for (let length = 0; length <= 200; length++) {
    const bytes = Uint8Array.from({ length }, (_, at) => (at * 167 + length) & 0xff);
    expect(bytesToHex(sha256(bytes)), `${length} bytes`).toBe(nobleHex(nobleSha256(bytes)));
  }
});

it('reads every generated text as @noble/hashes does: its UTF-8, its digest, the digest in hex', () => {
  sayTheSeedOnFailure();
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
      expect(utf8ToBytes(text)).toEqual(nobleUtf8(text));
      expect(digest(text)).toBe(nobleHex(nobleSha256(nobleUtf8(text))));
    }),
    { numRuns: 500, seed: FUZZ_SEED },
  );
});
