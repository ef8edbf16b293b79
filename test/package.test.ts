/** The built package as users load it: ESM and CommonJS entries from the exports map. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = async (args: string[]) => (await promisify(execFile)(process.execPath, args)).stdout.trim();

describe('the built package', () => {
  it('loads with require() and shares one ApiError class between its entries', async () => {
    const output = await run([
      '-e',
      `const core = require('petstore-service'); const node = require('petstore-service/node');
       console.log(typeof core.createPetStore, typeof node.serve, node.createPetStore === core.createPetStore);`,
    ]);
    expect(output).toBe('function function true');
  });

  it('loads with import and answers a request in-process', async () => {
    const output = await run([
      '--input-type=module',
      '-e',
      `import { createPetStore } from 'petstore-service';
       const response = await createPetStore().fetch('http://x/v1/openapi.json');
       console.log(response.status, (await response.json()).openapi);`,
    ]);
    expect(output).toBe('200 3.1.0');
  });
});
