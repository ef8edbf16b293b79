/** Every fenced block of README.md, checked against the built package (dist/, which `npm test` builds first) imported by its own name: from a gitignored folder inside the repo, `petstore-service` self-resolves through package.json `exports` to dist/, so tsc, Node and vitest load what a consumer loads (the exports map, the built .d.ts) without an npm pack per run; the packed tarball is test/types' job. */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoBinary } from '../runtimes/processes.ts';

// How a block says what it is: the info string's first word is its language, the words after it
// are what else to do with it. The test knows these and nothing else, so a new kind of block
// fails until it is taught here.
//   ts, typescript, js   a complete ES module, type-checked under Node's types (strict, skipLibCheck false)
//     deno               …checked by `deno check` (Deno's own types) instead
//     worker             …checked with the WebWorker lib and no Node types (a service worker)
//     run                …and run: js with Node (this one, Node 20), ts under vitest; a `console.log(…); // → x`
//                        line says what it prints
//   sh, bash, console    every `npm` names a real script, every petstore-service flag is in its --help,
//                        every curl is well-formed
//     run                …and the block runs in bash against a real petstore-service (its origin swapped in)
//   json                 parses
//   text tree            every path it names exists (relative to its folder, else the repo)
//   text output          is what `petstore-service` prints when it starts
// A ts block that declares an interface or type the package exports (PetStorage, LimitStore,
// Subject) gets a check added after it that the two are the same type. Blocks that are the mount
// recipes (byte for byte an examples/mount region, where `apiKeys` and `port` are defined) are
// delegated: test/types compiles those files, test/mount runs them, test/mount/readme.test.ts
// pins the copy. KEEP_DOCS_TMP=1 keeps the written blocks in test/docs/.tmp/ to look at.

const ROOT = resolve('.');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const CLI = join(ROOT, 'dist/cli/index.js');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
/** Inside the repo (so `petstore-service` resolves to it), dotted (so the repo's tsc skips it), one per run. */
const WORK = join(ROOT, 'test/docs/.tmp', `run-${process.pid}`);
const TIMEOUT_MS = 120_000;

interface Block {
  /** README line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly tags: readonly string[];
  readonly body: string;
  /** The heading it sits under. */
  readonly section: string;
}

/** Every fenced block, in order, with the nearest heading above it. */
function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let section = '(top)';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6}\s+(.*)$/.exec(lines[i]!);
    if (heading) section = heading[1]!.replace(/`/g, '');
    const open = /^(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, fence, info] = open as unknown as [string, string, string];
    const close = lines.findIndex((text, j) => j > i && new RegExp(`^${fence[0]}{${fence.length},}\\s*$`).test(text));
    if (close < 0) throw new Error(`README.md:${i + 1}: a fence that never closes`);
    const [lang = '', ...tags] = info.trim().split(/\s+/).filter(Boolean);
    blocks.push({ line: i + 1, lang: lang.toLowerCase(), tags, body: lines.slice(i + 1, close).join('\n') + '\n', section });
    i = close;
  }
  return blocks;
}

const BLOCKS = fencedBlocks(README);
const CODE_LANGS = ['ts', 'typescript', 'js', 'javascript'];
const SHELL_LANGS = ['sh', 'bash', 'console', 'shell'];
const KNOWN_TAGS: Record<string, string[]> = {
  ts: ['deno', 'worker', 'run'],
  js: ['run'],
  sh: ['run'],
  json: [],
  text: ['tree', 'output'],
};
const kindOf = (block: Block) =>
  CODE_LANGS.includes(block.lang) ? (block.lang.startsWith('t') ? 'ts' : 'js') : SHELL_LANGS.includes(block.lang) ? 'sh' : ['text', 'plain', 'txt'].includes(block.lang) ? 'text' : block.lang === 'json' ? 'json' : undefined;
const where = (block: Block) => `README.md:${block.line} (${block.section})`;
const fileStem = (block: Block) => `readme-L${block.line}`;

/** The `// #region recipe` of every examples/mount file: blocks equal to one are the mount recipes. */
function mountRecipes(): Map<string, string> {
  const recipes = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      const region = /\.(js|ts)$/.test(name) && /\/\/ #region recipe\n([\s\S]*?)\/\/ #endregion recipe\n/.exec(readFileSync(path, 'utf8'));
      if (region) recipes.set(region[1]!, path.slice(ROOT.length + 1));
    }
  };
  walk(join(ROOT, 'examples/mount'));
  return recipes;
}
const RECIPES = mountRecipes();

const code = BLOCKS.filter((block) => kindOf(block) === 'ts' || kindOf(block) === 'js');
const recipes = code.filter((block) => RECIPES.has(block.body));
const modules = code.filter((block) => !RECIPES.has(block.body));
const envOf = (block: Block) => (block.tags.includes('deno') ? 'deno' : block.tags.includes('worker') ? 'worker' : 'node');
const extOf = (block: Block) => (kindOf(block) === 'ts' ? '.ts' : '.mjs');

/** Runs a command to its end: exit code and output, never a throw, so a failure shows the tool's own words. */
async function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { maxBuffer: 16 * 1024 * 1024, timeout: 60_000, ...options });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout = '', stderr = '', signal } = error as { code?: number; stdout?: string; stderr?: string; signal?: string };
    return { code: typeof code === 'number' ? code : 1, stdout, stderr: `${stderr}${signal ? `\n(killed by ${signal})` : ''}` };
  }
}

/** Names the package exports from its root and /storage-conformance, read from the built declarations. */
function exportedTypes(): Map<string, string> {
  const names = new Map<string, string>();
  for (const [entry, file] of [['petstore-service', 'dist/index.d.ts'], ['petstore-service/storage-conformance', 'dist/storage-conformance/index.d.ts']] as const) {
    for (const [, list] of readFileSync(join(ROOT, file), 'utf8').matchAll(/^export \{([^}]*)\}/gm)) {
      for (const item of list!.split(',')) {
        const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/).at(-1)!;
        if (name && !names.has(name)) names.set(name, entry);
      }
    }
  }
  return names;
}

/**
 * What the test adds after a block: for each interface or type the block declares that the package
 * also exports, a check that the two are the same type, so a contract shown in the README cannot
 * drift from the shipped one. It only adds errors; it declares nothing the block uses.
 */
function contractChecks(block: Block, exported: Map<string, string>): string {
  const declared = [...block.body.matchAll(/^(?:export\s+)?(?:interface|type)\s+(\w+)/gm)].map((m) => m[1]!).filter((name) => exported.has(name));
  return declared
    .map((name) =>
      [
        `// test/docs: README's ${name} must be the shipped ${name}`,
        `import type { ${name} as Shipped_${name} } from '${exported.get(name)}';`,
        `const same_${name}: [${name}] extends [Shipped_${name}] ? ([Shipped_${name}] extends [${name}] ? true : false) : false = true;`,
        `void same_${name};`,
      ].join('\n'),
    )
    .join('\n');
}

/** tsc's diagnostics, by the file they are in. */
function diagnosticsByFile(output: string, dir: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of output.split('\n')) {
    const start = /^(.+?)\(\d+,\d+\): error /.exec(line);
    if (start) {
      const file = resolve(dir, start[1]!);
      byFile.set(file, byFile.get(file) ?? []);
      current = byFile.get(file)!;
      current.push(line);
    } else if (line.trim() && current) current.push(line);
  }
  return byFile;
}

const TS_OPTIONS = {
  target: 'ES2022',
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  allowJs: true,
  checkJs: true,
  // Each block is its own module, even one without an import.
  moduleDetection: 'force',
};

/** Diagnostics of every module block, per block; and those in no block (the declarations they load). */
const checked = new Map<Block, string[]>();
/** What was compiled for each block: the block, and any checks added after it. */
const compiled = new Map<Block, string>();
const elsewhere: string[] = [];

beforeAll(async () => {
  if (!existsSync(CLI) || !existsSync(join(ROOT, 'dist/index.d.ts'))) {
    throw new Error('dist/ is missing: run `npm run build` first (`npm test` does)');
  }
  rmSync(WORK, { recursive: true, force: true });
  const exported = exportedTypes();
  const write = (env: string, block: Block) => {
    const path = join(WORK, env, fileStem(block) + extOf(block));
    mkdirSync(dirname(path), { recursive: true });
    const extra = kindOf(block) === 'ts' ? contractChecks(block, exported) : '';
    const text = extra ? `${block.body}\n${extra}\n` : block.body;
    writeFileSync(path, text);
    compiled.set(block, text);
    return path;
  };
  const files = new Map(modules.map((block) => [block, write(envOf(block), block)]));

  // No package.json in node/ or worker/: the repo's is the nearest, so `petstore-service` is the repo itself.
  const tsconfigs = {
    node: { compilerOptions: { ...TS_OPTIONS, module: 'node16', moduleResolution: 'node16', lib: ['ES2022'], types: ['node'] } },
    worker: { compilerOptions: { ...TS_OPTIONS, module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022', 'WebWorker', 'ESNext.Disposable'], types: [] } },
  };
  const checks = Object.entries(tsconfigs)
    .filter(([env]) => modules.some((block) => envOf(block) === env))
    .map(async ([env, config]) => {
      const dir = join(WORK, env);
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...config, include: ['*.ts', '*.mjs'] }, null, 2));
      const { code, stdout, stderr } = await run(process.execPath, [TSC, '-p', '.', '--pretty', 'false'], { cwd: dir, timeout: TIMEOUT_MS });
      const byFile = diagnosticsByFile(`${stdout}${stderr}`, dir);
      // A failure that names no file (a bad option, a crash) must not pass every block.
      if (code !== 0 && byFile.size === 0) elsewhere.push(`tsc (${env}) exited with ${code}:\n${stdout}${stderr}`);
      for (const block of modules.filter((b) => envOf(b) === env)) checked.set(block, byFile.get(files.get(block)!) ?? []);
      for (const [file, lines] of byFile) if (![...files.values()].includes(file)) elsewhere.push(...lines);
    });

  // Deno resolves an npm package from node_modules only when it is really there: a copy of what
  // npm would install (copies of package.json and dist/), beside Deno's own package scope.
  const denoBlocks = modules.filter((block) => envOf(block) === 'deno');
  if (denoBlocks.length > 0) {
    const dir = join(WORK, 'deno');
    const installed = join(dir, 'node_modules/petstore-service');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
    cpSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
    cpSync(join(ROOT, 'dist'), join(installed, 'dist'), { recursive: true });
    const deno = await denoBinary();
    checks.push(
      ...denoBlocks.map(async (block) => {
        const { code, stdout, stderr } = await run(deno, ['check', '--quiet', fileStem(block) + extOf(block)], { cwd: dir, timeout: TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1' } });
        checked.set(block, code === 0 ? [] : [`${stdout}${stderr}`.trim()]);
      }),
    );
  }
  await Promise.all(checks);
}, TIMEOUT_MS);

afterAll(() => {
  if (process.env.KEEP_DOCS_TMP) return;
  rmSync(WORK, { recursive: true, force: true });
  // The parent goes too once no other run is using it.
  if (readdirSync(dirname(WORK)).length === 0) rmSync(dirname(WORK), { recursive: true, force: true });
});

describe('README.md: every fenced block', () => {
  it('has a language and tags this test knows how to check', () => {
    const unknown = BLOCKS.filter((block) => {
      const kind = kindOf(block);
      return kind === undefined || block.tags.some((tag) => !KNOWN_TAGS[kind]!.includes(tag)) || (kind === 'text' && block.tags.length !== 1);
    });
    expect(unknown.map((block) => `${where(block)}: \`\`\`${block.lang} ${block.tags.join(' ')}`.trim())).toEqual([]);
  });

  it('runs the testing quick start and "No network at all", not only type-checks them', () => {
    const runs = (section: string) => BLOCKS.some((block) => block.section === section && block.tags.includes('run'));
    expect({ quickStart: runs('As the fake backend in your tests'), noNetwork: runs('No network at all') }).toEqual({ quickStart: true, noNetwork: true });
  });

  it('says which checks each block gets (printed)', () => {
    const rows = BLOCKS.map((block) => {
      const kind = kindOf(block);
      const does =
        kind === 'ts' || kind === 'js'
          ? RECIPES.has(block.body)
            ? `the recipe region of ${RECIPES.get(block.body)} (compiled by test/types, run by test/mount)`
            : `${envOf(block) === 'deno' ? 'deno check' : `tsc (${envOf(block)})`}${kind === 'js' ? ', node --check' : ''}${block.tags.includes('run') ? (kind === 'js' ? ', run on Node' : ', run under vitest') : ', not run'}`
          : kind === 'sh'
            ? `commands checked${block.tags.includes('run') ? ', run against a real petstore-service' : ', not run'}`
            : kind === 'text'
              ? block.tags.includes('tree') ? 'paths exist' : 'compared with the CLI output'
              : kind === 'json' ? 'parsed' : 'UNKNOWN';
      return `  ${where(block)}: ${block.lang} → ${does}`;
    });
    console.info(`README.md blocks:\n${rows.join('\n')}`);
    expect(rows.length).toBe(BLOCKS.length);
  });
});

describe('README.md: TypeScript and JavaScript blocks', () => {
  it.each(modules.map((block) => [where(block), envOf(block) === 'deno' ? 'deno check' : `tsc, ${envOf(block)} types`, block] as const))(
    'the block at %s type-checks against the built package as its own module (%s)',
    (_, __, block) => {
      expect(checked.get(block)?.join('\n') ?? 'not checked', compiled.get(block)).toBe('');
    },
  );

  it('the declarations those blocks load compile too (strict, skipLibCheck false)', () => {
    expect(elsewhere.join('\n')).toBe('');
  });

  it.each(recipes.map((block) => [where(block), RECIPES.get(block.body)!] as const))(
    'the block at %s is the recipe region of %s, which test/types compiles and test/mount runs',
    (_, file) => {
      expect(existsSync(join(ROOT, file))).toBe(true);
    },
  );

  it.each(code.filter((block) => kindOf(block) === 'js').map((block) => [where(block), block] as const))(
    'the JavaScript block at %s is valid syntax for Node 20 (node --check)',
    async (_, block) => {
      const path = join(WORK, 'syntax', `${fileStem(block)}.mjs`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, block.body);
      const { code: exit, stderr } = await run(process.execPath, ['--check', path]);
      expect(exit, stderr).toBe(0);
    },
  );

  /** `console.log(…); // → 200 []`: the lines a run must print, in order. */
  const expectedOutput = (block: Block) => [...block.body.matchAll(/console\.log\(.*\/\/ → (.*)$/gm)].map((m) => m[1]!.trim());

  it.each(modules.filter((block) => kindOf(block) === 'js' && block.tags.includes('run')).map((block) => [where(block), block] as const))(
    'the block at %s runs on Node 20 against the built package and prints what its comments say',
    async (_, block) => {
      const { code: exit, stdout, stderr } = await run(process.execPath, [`${fileStem(block)}.mjs`], { cwd: join(WORK, envOf(block)), timeout: 30_000 });
      expect(exit, `${stdout}${stderr}`).toBe(0);
      expect(stdout.trim().split('\n').filter(Boolean)).toEqual(expectedOutput(block));
    },
  );

  it.each(modules.filter((block) => kindOf(block) === 'ts' && block.tags.includes('run')).map((block) => [where(block), block] as const))(
    'the block at %s passes as a vitest test file against the built package',
    async (_, block) => {
      const dir = join(WORK, `vitest-${fileStem(block)}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${fileStem(block)}.ts`), block.body);
      writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.ts'] } };\n");
      const { code: exit, stdout, stderr } = await run(process.execPath, [VITEST, 'run', '--config', 'vitest.config.mjs'], { cwd: dir, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
      expect(exit, `${stdout}${stderr}`).toBe(0);
      expect(stdout).toMatch(/Tests\s+\d+ passed/);
    },
  );
});

/** Shell words of one command line, quotes removed; `$VAR` left as written. Throws on an unclosed quote. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed ${c} in: ${text}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The commands of a shell block: continuation lines joined, comments dropped, split at && ; |. */
function shellCommands(body: string): string[][] {
  const commands: string[][] = [];
  for (const line of body.replace(/\\\n/g, ' ').split('\n')) {
    let words = shellWords(line);
    while (words.length > 0) {
      const cut = words.findIndex((w) => ['&&', '||', ';', '|'].includes(w));
      commands.push(cut < 0 ? words : words.slice(0, cut));
      words = cut < 0 ? [] : words.slice(cut + 1);
    }
  }
  return commands.filter((command) => command.length > 0);
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What is wrong with one curl command, if anything: unknown options, bad headers, a body that is not JSON, not one URL. */
function curlProblems(words: string[]): string[] {
  const problems: string[] = [];
  const urls: string[] = [];
  const headers: string[] = [];
  let data: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const value = () => words[++i] ?? (problems.push(`${word} needs a value`), '');
    if (['-i', '-s', '-v', '-f', '--include', '--silent', '--fail'].includes(word)) continue;
    if (word === '-X' || word === '--request') {
      const method = value();
      if (!HTTP_METHODS.includes(method)) problems.push(`unknown method ${method}`);
    } else if (word === '-H' || word === '--header') {
      const header = value();
      headers.push(header);
      if (!/^[A-Za-z0-9-]+: \S/.test(header)) problems.push(`malformed header "${header}"`);
    } else if (word === '-d' || word === '--data') data = value();
    else if (word.startsWith('-')) problems.push(`option ${word} is not one this test knows`);
    else urls.push(word);
  }
  if (urls.length !== 1) problems.push(`expected one URL, got ${urls.length}`);
  else if (!/^(https?:\/\/|\$URL\/|\$\{URL\}\/)/.test(urls[0]!)) problems.push(`URL ${urls[0]} is neither http(s) nor $URL/…`);
  if (data !== undefined && headers.some((h) => /^content-type: application\/json/i.test(h))) {
    try {
      JSON.parse(data);
    } catch {
      problems.push(`-d ${data} is not JSON`);
    }
  }
  return problems;
}

/** For each `curl -i` of a block, the status the comment line right above it names, if any. */
function curlExpectations(body: string): (number | undefined)[] {
  const expected: (number | undefined)[] = [];
  let comment = '';
  for (const line of body.replace(/\\\n/g, ' ').split('\n')) {
    if (line.startsWith('#')) comment = line;
    else {
      const words = line.trim() ? shellWords(line) : [];
      if (words[0] === 'curl' && words.includes('-i')) expected.push(Number(/\b([1-5]\d\d)\b/.exec(comment)?.[1]) || undefined);
      comment = '';
    }
  }
  return expected;
}

let cliHelp: string;
const cliFlags = () => new Set([...cliHelp.matchAll(/(?<![\w-])(--?[a-z][\w-]*)/g)].map((m) => m[1]!));

describe('README.md: shell blocks and the command line', () => {
  beforeAll(async () => {
    const help = await run(process.execPath, [CLI, '--help']);
    expect(help.code, help.stderr).toBe(0);
    cliHelp = help.stdout;
  });

  it.each(BLOCKS.filter((block) => kindOf(block) === 'sh').map((block) => [where(block), block] as const))(
    'the shell block at %s names only real npm scripts, flags the CLI lists, and well-formed curl commands',
    (_, block) => {
      const problems: string[] = [];
      for (const words of shellCommands(block.body)) {
        const [command, sub, script] = words as [string, string?, string?];
        if (/^[A-Z_][A-Z0-9_]*=/.test(command)) continue; // VAR=value
        if (command === 'npm') {
          if (sub === 'run' && !(script! in PKG.scripts)) problems.push(`npm run ${script}: no such script`);
          else if ((sub === 'start' || sub === 'test') && !(sub in PKG.scripts)) problems.push(`npm ${sub}: no such script`);
          else if (!['run', 'start', 'test', 'install', 'ci'].includes(sub ?? '')) problems.push(`npm ${sub}: not a command this test knows`);
        } else if (command === 'petstore-service' || (command === 'npx' && sub === 'petstore-service')) {
          for (const flag of words.filter((w) => w.startsWith('-'))) if (!cliFlags().has(flag.split('=')[0]!)) problems.push(`petstore-service ${flag}: not in --help`);
        } else if (command === 'curl') problems.push(...curlProblems(words).map((p) => `curl: ${p}`));
        else problems.push(`${command}: not a command this test knows how to check`);
      }
      expect(problems).toEqual([]);
    },
  );

  it('the command-line table names only flags and variables the CLI --help lists', () => {
    const table = README.slice(README.indexOf('### Command line and environment'));
    const rows = table.slice(0, table.indexOf('\n\n', table.indexOf('| ---'))).split('\n').filter((row) => row.startsWith('| ') && !row.startsWith('| ---') && !row.startsWith('| Setting'));
    expect(rows.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const row of rows) {
      const [, , flags = '', env = ''] = row.split(/(?<!\\)\|/).map((cell) => cell.trim());
      for (const [, flag] of flags.matchAll(/`(--?[a-z][\w-]*)/g)) if (!cliFlags().has(flag!)) missing.push(flag!);
      for (const [, name] of env.matchAll(/`([A-Z_]+)`/g)) if (!cliHelp.includes(`env ${name}`)) missing.push(name!);
    }
    expect(missing).toEqual([]);
  });

  it.each(BLOCKS.filter((block) => kindOf(block) === 'sh' && block.tags.includes('run')).map((block) => [where(block), block] as const))(
    'the shell block at %s runs against a real petstore-service: every curl gets a 2xx, and the status its comment names',
    async (_, block) => {
      const key = /^KEY=(\S+)/m.exec(block.body)?.[1];
      const origin = /^URL=(https?:\/\/[^/\s]+)/m.exec(block.body)?.[1];
      expect(key && origin, 'the block sets KEY=… and URL=http://host:port/…').toBeTruthy();
      const server = spawn(process.execPath, [CLI, '--port', '0', '--key', `${key}:free`], { env: { ...process.env, PETSTORE_API_KEYS: '' } });
      try {
        const url = await new Promise<string>((found, fail) => {
          let output = '';
          server.stdout.on('data', (chunk) => {
            output += chunk;
            const match = /listening on (https?:\/\/[^/\s]+)/.exec(output);
            if (match) found(match[1]!);
          });
          server.on('exit', (exitCode) => fail(new Error(`petstore-service exited with ${exitCode}: ${output}`)));
        });
        const script = `set -euo pipefail\n${block.body.split(origin!).join(url)}`;
        const { code: exit, stdout, stderr } = await run('bash', ['-c', script], { timeout: 30_000 });
        expect(exit, stderr).toBe(0);
        // A status line follows the previous body on its line when that body has no final newline.
        const statuses = [...stdout.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
        const withInclude = shellCommands(block.body).filter((words) => words[0] === 'curl' && words.includes('-i'));
        expect(statuses).toHaveLength(withInclude.length);
        expect(statuses.every((status) => status >= 200 && status < 300), stdout).toBe(true);
        // "# Create a pet: 201 …" names the status the curl under it gets.
        curlExpectations(block.body).forEach((status, index) => status && expect(statuses[index], `curl #${index + 1}`).toBe(status));
      } finally {
        server.kill();
      }
    },
    TIMEOUT_MS,
  );
});

describe('README.md: text and JSON blocks', () => {
  it('every JSON block parses', () => {
    const broken = BLOCKS.filter((block) => kindOf(block) === 'json').flatMap((block) => {
      try {
        JSON.parse(block.body);
        return [];
      } catch (error) {
        return [`${where(block)}: ${(error as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
  });

  it.each(BLOCKS.filter((block) => kindOf(block) === 'text' && block.tags.includes('tree')).map((block) => [where(block), block] as const))(
    'the tree at %s names only paths that exist',
    (_, block) => {
      expect(missingTreePaths(block.body)).toEqual([]);
    },
  );

  it.each(BLOCKS.filter((block) => kindOf(block) === 'text' && block.tags.includes('output')).map((block) => [where(block), block] as const))(
    'the output at %s is what petstore-service prints when it starts (port and generated key aside)',
    async (_, block) => {
      const server = spawn(process.execPath, [CLI, '--port', '0'], { env: { ...process.env, PETSTORE_API_KEYS: '', PORT: '' } });
      try {
        const printed = await new Promise<string>((done, fail) => {
          let output = '';
          server.stdout.on('data', (chunk) => {
            output += chunk;
            if (output.split('\n').length > block.body.trim().split('\n').length) done(output);
          });
          server.on('exit', (exitCode) => fail(new Error(`petstore-service exited with ${exitCode}: ${output}`)));
        });
        const normalized = (text: string) => text.trim().split('\n').slice(0, block.body.trim().split('\n').length).map((line) => line.replace(/:\d{2,5}\//g, ':PORT/').replace(/[A-Za-z0-9_-]{32}/g, 'KEY'));
        expect(normalized(block.body)).toEqual(normalized(printed));
        expect(printed.trim().split('\n')).toHaveLength(block.body.trim().split('\n').length);
      } finally {
        server.kill();
      }
    },
  );
});

/**
 * Paths of a tree: an entry's names (its first column: `src/`, `deno/ bun/`) are children of the
 * entry it is indented under; a word in its description that looks like a path (`routes.ts`,
 * `unit/`) is in the entry's folder or, failing that, the repo's. `<name>` stands for any folder.
 * A line indented to the description column continues the entry above.
 */
function missingTreePaths(tree: string): string[] {
  const missing: string[] = [];
  const stack: { indent: number; dir: string }[] = [];
  let descriptionColumn = Infinity;
  let folder = ROOT;
  const exists = (base: string, name: string) =>
    name.includes('<') ? existsSync(base) && readdirSync(base).some((child) => statSync(join(base, child)).isDirectory()) : existsSync(join(base, name));
  for (const line of tree.split('\n')) {
    if (!line.trim()) continue;
    const indent = line.length - line.trimStart().length;
    let description = line.trim();
    if (indent < descriptionColumn) {
      const [names = '', rest = ''] = line.trim().split(/\s{2,}(.*)/);
      description = rest;
      descriptionColumn = rest ? line.indexOf(rest, indent + names.length) : Infinity;
      while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop();
      const parent = stack.at(-1)?.dir ?? ROOT;
      for (const name of names.split(/\s+/)) {
        if (!exists(parent, name)) missing.push(join(parent, name).slice(ROOT.length + 1));
      }
      const first = names.split(/\s+/)[0]!;
      folder = first.endsWith('/') ? join(parent, first) : parent;
      stack.push({ indent, dir: folder });
    }
    for (const raw of description.split(/\s+/)) {
      const word = raw.replace(/^[(`'"]+|[)`'",.;:]+$/g, '');
      if (!/^[\w.<>-]+(\/[\w.<>-]*)*$/.test(word) || !(/\/$/.test(word) || /\.(ts|js|mjs|cjs|json|md)$/.test(word))) continue;
      if (!exists(folder, word) && !exists(ROOT, word)) missing.push(`${word} (under ${folder.slice(ROOT.length + 1) || '.'})`);
    }
  }
  return missing;
}

describe('README.md: links', () => {
  /** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
  const anchors = new Set(
    [...README.matchAll(/^#{1,6}\s+(.*)$/gm)].map((m) =>
      m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-'),
    ),
  );

  it('every relative link points at a file, folder or heading that exists', () => {
    const broken: string[] = [];
    for (const [, target] of README.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string?];
      if (path && !existsSync(join(ROOT, path))) broken.push(target!);
      if (!path && anchor && !anchors.has(anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });
});
