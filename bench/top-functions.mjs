// Prints the functions with the most self time in a .cpuprofile: `node bench/top-functions.mjs <file>`.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
const self = new Map();
profile.samples.forEach((id, i) => {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + profile.timeDeltas[i]);
});
for (const [name, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 25))) {
  console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
}
