/** The checks the OpenAPI documents' building makes: a part built wrong (a reference to nothing, a header with no optional form) fails the build, naming it. */
import { describe, expect, it } from 'vitest';
import { ref } from './json-schema.ts';
import { withoutBodies } from './openapi-parts.ts';
import { HEADER_COMPONENTS, optional } from './openapi-responses.ts';

describe('withoutBodies', () => {
  it('refuses a response that refers to a component the document does not have, naming the reference', () => {
    expect(() => withoutBodies({ 404: ref('responses', 'Missing') }, {})).toThrow(new Error('no response component for #/components/responses/Missing'));
  });

  it('gives a referenced response as its component without the body, and an inline one as it is without its body', () => {
    const components = { NotFound: { description: 'No such pet.', headers: { A: 1 }, content: { b: 2 } } };
    expect(withoutBodies({ 404: ref('responses', 'NotFound'), 200: { description: 'A pet.', content: {} } }, components)).toEqual({
      404: { description: 'No such pet.', headers: { A: 1 } },
      200: { description: 'A pet.' },
    });
  });
});

describe('optional', () => {
  it('refuses a header that has no optional form, naming it', () => {
    expect(() => optional({ 'X-Unknown': ref('headers', 'X-Unknown') })).toThrow(new Error('no optional form of the header X-Unknown'));
    expect(() => optional({ Inline: { description: 'not a reference' } })).toThrow(new Error('no optional form of the header Inline'));
  });

  it('refers a required header to its optional form, and leaves one already optional as it is', () => {
    expect(HEADER_COMPONENTS['Sunset.optional']?.required).toBe(false);
    expect(optional({ Sunset: ref('headers', 'Sunset'), Vary: ref('headers', 'Vary') })).toEqual({
      Sunset: ref('headers', 'Sunset.optional'),
      Vary: ref('headers', 'Vary'),
    });
  });
});
