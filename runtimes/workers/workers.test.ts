/** petStoreWorker's options, checked when the Worker's module loads: a wrong one is a TypeError naming it, before any request. */
import { describe, expect, it } from 'vitest';
import { petStoreWorker } from './index.ts';

describe('petStoreWorker', () => {
  it('refuses an unknown option by name, listing the ones it takes', () => {
    expect(() => petStoreWorker({ basepath: '/v2' } as never)).toThrow(/petStoreWorker.*"basepath".*basePath/s);
  });

  const fromBindings = ['apiKeys', 'storage', 'limitStore', 'clientAddress', 'trustProxy', 'proxyHeader', 'admin'];
  it.each(fromBindings)('refuses %s, which the bindings decide on Workers', (name) => {
    expect(() => petStoreWorker({ [name]: undefined } as never)).toThrow(new RegExp(`"${name}"`));
  });

  it('refuses a mountPath that is not path segments', () => {
    expect(() => petStoreWorker({ mountPath: 'api/' })).toThrow('petStoreWorker: mountPath must be "" or path segments like "/api", without a trailing slash');
  });

  it('checks the options createPetStore takes as createPetStore does', () => {
    expect(() => petStoreWorker({ basePath: 'v1' })).toThrow(/basePath must be/);
    expect(() => petStoreWorker({ onError: 'log' as never })).toThrow('onError must be a function');
  });
});
