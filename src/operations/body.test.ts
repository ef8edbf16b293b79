/** joinedChunks, the one join of a streamed body's chunks (the API's body and the journal's): one chunk as it came, several copied in order. */
import { describe, expect, it } from 'vitest';
import { joinedChunks } from './body.ts';

describe('joinedChunks', () => {
  it('gives a body that came in one chunk as that chunk, not a copy of it', () => {
    const chunk = new Uint8Array([123, 125]);
    expect(joinedChunks([chunk], 2)).toBe(chunk);
  });

  it('gives a body that came in several chunks as their bytes in order', () => {
    const chunks = [new Uint8Array([1, 2]), new Uint8Array([]), new Uint8Array([3])];
    expect(joinedChunks(chunks, 3)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('gives a body that came in no chunk as no bytes', () => {
    expect(joinedChunks([], 0)).toEqual(new Uint8Array(0));
  });
});
