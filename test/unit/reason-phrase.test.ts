/** reasonPhrase: the words a status line says, the same as Node's own for every status Node names. */
import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { reasonPhrase } from '../../src/index.ts';

describe('reasonPhrase', () => {
  it("says Node's phrase for every status Node names, so both node:http paths and Node's own refusals agree", () => {
    const named = Object.keys(STATUS_CODES).map(Number);
    expect(named.map((status) => [status, reasonPhrase(status)])).toEqual(named.map((status) => [status, STATUS_CODES[status]]));
  });

  it('names a status no registry names by its class, never an empty phrase or OK', () => {
    expect([199, 299, 399, 419, 499, 520, 599].map(reasonPhrase)).toEqual([
      'Informational',
      'Success',
      'Redirection',
      'Client Error',
      'Client Error',
      'Server Error',
      'Server Error',
    ]);
  });
});
