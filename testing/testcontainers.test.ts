/** PetStoreContainer's methods check what they are given at once, before anything starts: a TypeError naming the method and what it takes. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_IMAGE } from './image-name.ts';
import { PetStoreContainer } from './testcontainers.ts';

/** The image a container would run, which GenericContainer keeps to itself. */
class Inspected extends PetStoreContainer {
  image(): string {
    return this.imageName.string;
  }
}

describe('a PetStoreContainer before it starts', () => {
  it('runs the image a release publishes unless given another, by the constructor or withImage', () => {
    expect(new Inspected().image()).toBe(DEFAULT_IMAGE);
    expect(new Inspected('localhost/petstore-service:dev').image()).toBe('localhost/petstore-service:dev');
    expect(new Inspected().withImage('petstore-service:test').image()).toBe('petstore-service:test');
  });

  it('takes keys, a token, generated pets and an image, each call returning the container for the next', () => {
    const container = new PetStoreContainer();
    expect(
      container
        .withApiKeys({ 'app-key': 'pro', 'big-key': { perMinute: 1000, perDay: 100_000 } })
        .withApiKeys(new Map([['other-key', 'free']]))
        .withAdminToken('admin-token-0123456789')
        .withGenerate({ count: 25, seed: 7 })
        .withGenerate({ count: 10_000 })
        .withImage('petstore-service:test'),
    ).toBe(container);
  });

  it('refuses an image name that names none', () => {
    for (const image of ['', 'two words', 42 as never]) {
      expect(() => new PetStoreContainer().withImage(image)).toThrow(new TypeError('withImage takes an image name, like "petstore-service:dev"'));
      expect(() => new PetStoreContainer(image)).toThrow(TypeError);
    }
  });

  it('refuses keys the command would refuse, naming the entry and never the key', () => {
    const refused = (apiKeys: unknown) => () => new PetStoreContainer().withApiKeys(apiKeys as never);
    expect(refused({ 'a secret key': 'free' })).toThrow(
      new TypeError('withApiKeys: API key entry 1: the key may hold only letters, digits and - . _ ~ + / (it is sent in a Bearer header)'),
    );
    expect(refused({ 'key-1': 'free', 'key-2': 'gold' })).toThrow(/^withApiKeys: API key entry 2: an unknown plan; plans: free, pro, business or enterprise/);
    expect(refused({ 'key-1': { perMinute: 0, perDay: 10 } })).toThrow(/^withApiKeys: API key entry 1: an enterprise plan is enterprise:PER_MINUTE:PER_DAY/);
    expect(refused('key-1:free')).toThrow(/^withApiKeys: apiKeys must be an object from key to plan/);
    expect(refused({ 'key,2': 'free' })).toThrow(TypeError);
    try {
      refused({ 'a secret key': 'free' })();
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
  });

  it('refuses an admin token no client can send, without echoing it', () => {
    const rule = new TypeError(
      'withAdminToken takes 16 or more characters a client can send in Authorization: Bearer (letters, digits, -._~+/, and = only at the end)',
    );
    for (const token of ['short-token', 'a token with spaces in it', '', undefined as never]) {
      expect(() => new PetStoreContainer().withAdminToken(token)).toThrow(rule);
    }
  });

  it('refuses a count or seed of generated pets out of range', () => {
    const rule = new TypeError('withGenerate takes { count, seed? }: a count from 1 to 10000, a seed from 0 to 4294967295');
    for (const options of [{ count: 0 }, { count: 10_001 }, { count: 2.5 }, { count: 5, seed: -1 }, { count: 5, seed: 2 ** 32 }, { count: '5' }, undefined]) {
      expect(() => new PetStoreContainer().withGenerate(options as never)).toThrow(rule);
    }
  });
});
