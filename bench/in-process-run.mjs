// Runs only the in-process loop and prints JSON: how bench/index.mjs measures another Node version.
import { inProcessCalls } from './in-process.mjs';

const [passes, seconds] = process.argv.slice(2).map(Number);
console.log(JSON.stringify(await inProcessCalls({ passes, seconds })));
