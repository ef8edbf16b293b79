/** ApiError: an answer to send, so it is cheap to make and logs as one line; a cause keeps its own trace. */
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';

describe('ApiError', () => {
  it('logs as its name and message, without stack frames', () => {
    const error = new ApiError({ status: 401, code: 'unauthorized', message: 'The API key is not valid.' });
    expect(error.stack).toBe('ApiError: The API key is not valid.');
  });

  it('keeps the stack of its cause, and leaves other errors their frames', () => {
    const cause = new Error('connection refused');
    const error = new ApiError({ status: 503, code: 'service_unavailable', message: 'The database is down.', cause });
    expect(error.cause).toBe(cause);
    expect(cause.stack).toMatch(/\n\s+at /);
    expect(new Error('after').stack).toMatch(/\n\s+at /);
  });

  it('is still an Error, with its body and headers', () => {
    const error = new ApiError({ status: 405, code: 'method_not_allowed', message: 'Use GET.', headers: { Allow: 'GET' } });
    expect(error).toBeInstanceOf(Error);
    expect(error.toJSON()).toEqual({ code: 'method_not_allowed', message: 'Use GET.', status: 405 });
    expect(error.headers).toEqual({ Allow: 'GET' });
  });
});
