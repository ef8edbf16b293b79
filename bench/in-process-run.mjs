// Runs only the in-process loops and prints JSON: how bench/index.mjs measures another Node version.
import { inProcessCalls, inProcessPeers } from './in-process.mjs';

const [passes, seconds, rounds, roundSeconds] = process.argv.slice(2).map(Number);
console.log(JSON.stringify({ ...(await inProcessCalls({ passes, seconds })), peers: await inProcessPeers({ rounds, seconds: roundSeconds }) }));
