/** The selector a request carries: its Petstore-Sandbox header, else the petstore.sandbox member of its W3C baggage, or none. */
import { describe, expect, it } from 'vitest';
import { selectorOf } from './sandbox-selector.ts';

const of = (headers: Record<string, string>) => selectorOf(new Headers(headers));

describe('selectorOf', () => {
  it('is none without either header, or with baggage that has no petstore.sandbox member', () => {
    expect(of({})).toBeUndefined();
    expect(of({ baggage: 'userId=alice,serverNode=DF%2028' })).toBeUndefined();
    expect(of({ baggage: 'petstore.sandboxes=pssel_x, xpetstore.sandbox=pssel_y' })).toBeUndefined();
    expect(of({ 'petstore-sandbox': '  ' })).toBeUndefined();
  });

  it('reads Petstore-Sandbox, its whitespace trimmed', () => {
    expect(of({ 'Petstore-Sandbox': ' pssel_abc ' })).toBe('pssel_abc');
  });

  it('reads the baggage member among others, in any order, with whitespace and properties, percent-decoded', () => {
    expect(of({ baggage: 'petstore.sandbox=pssel_abc' })).toBe('pssel_abc');
    expect(of({ baggage: 'userId=alice , petstore.sandbox = pssel_abc ;ttl=3;flag , b=2' })).toBe('pssel_abc');
    expect(of({ baggage: 'a=1,petstore.sandbox=pssel%5Fa%2Dc' })).toBe('pssel_a-c');
    // Two baggage headers are one list, joined with a comma.
    const headers = new Headers();
    headers.append('baggage', 'a=1');
    headers.append('baggage', 'petstore.sandbox=pssel_two');
    expect(selectorOf(headers)).toBe('pssel_two');
  });

  it('keeps a value that does not decode as it came, so it reaches no sandbox but is no main-world request either', () => {
    expect(of({ baggage: 'petstore.sandbox=pssel_%E0%A4%A' })).toBe('pssel_%E0%A4%A');
  });

  it('trims any run of spaces and tabs around the key and the value, and nothing inside them', () => {
    expect(of({ baggage: ' \t petstore.sandbox \t =  \tpssel_abc \t ;p=1' })).toBe('pssel_abc');
    expect(of({ baggage: 'petstore .sandbox=pssel_abc' })).toBeUndefined();
    expect(of({ baggage: 'petstore.sandbox=pssel_a%20b' })).toBe('pssel_a b');
  });

  it('takes no member without "=", even one whose name starts with petstore.sandbox', () => {
    expect(of({ baggage: 'petstore.sandboxX, a=1' })).toBeUndefined();
  });

  it('prefers Petstore-Sandbox to baggage', () => {
    expect(of({ 'petstore-sandbox': 'pssel_header', baggage: 'petstore.sandbox=pssel_baggage' })).toBe('pssel_header');
  });
});
