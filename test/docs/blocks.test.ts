/** Every fenced block of README.md and of every docs/*.md page, checked against the built package (dist/, which `npm test` builds first) imported by its own name: from a gitignored folder inside the repo, `petstore-service` self-resolves through package.json `exports` to dist/, so tsc, Node and vitest load what a consumer loads (the exports map, the built .d.ts) without an npm pack per run; the packed tarball is test/types' job. */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_REPOSITORY } from '../../testing/image-name.ts';
import { denoBinary } from '../runtimes/processes.ts';
import {
  BLOCKS,
  CLI,
  ROOT,
  curlExpectations,
  curlProblems,
  declaredExports,
  fileStem,
  kindOf,
  missingTreePaths,
  mountRecipes,
  run,
  shellCommands,
  type Block,
  where,
} from './markdown.ts';

// How a block says what it is: the info string's first word is its language, the words after it
// are what else to do with it. The test knows these and nothing else, so a new kind of block
// fails until it is taught here.
//   ts, typescript, js   a complete ES module, type-checked under Node's types (strict, skipLibCheck false)
//     deno               …checked by `deno check` (Deno's own types) instead
//     worker             …checked with the WebWorker lib and no Node types (a service worker)
//     playwright         …checked with Node's types and the DOM lib, as a Playwright project has them (@playwright/test's need it)
//     next               …checked as a Next.js app's tsconfig has it: bundler resolution (@vercel/otel's declarations
//                        import without extensions), the DOM lib and Node's types
//     run                …and run: js with Node (this one, Node 20), ts under vitest; a `console.log(…); // → x`
//                        line says what it prints
//   sh, bash, console    every `npm` names a real script, every petstore-service flag is in its --help,
//                        every curl is well-formed; a `podman run` or `docker run` of the image passes
//                        only variables the command reads (-e) and flags in its --help (after the image)
//     run                …and the block runs in bash against a real petstore-service (its origin swapped in):
//                        the one its first line starts (`petstore-service <flags> &`), else one with the
//                        block's `KEY=` on the free plan; each `curl -i` gets the status the comment
//                        line above it names, or a 2xx
//   json                 parses
//   toml                 is the example Worker's wrangler.toml (examples/mount/workers), byte for byte
//   yaml prometheus      a Prometheus configuration: `promtool check config` accepts it
//   dockerfile           an image of your own: FROM the image a release publishes (testing/image-name.ts)
//   text tree            every path it names exists (relative to its folder, else the repo)
//   text output          is what `petstore-service` prints when it starts
// A ts block that declares an interface or type the package exports (PetStorage, LimitStore,
// Subject) gets a check added after it that the two are the same type. Blocks that are the mount
// recipes (byte for byte an examples/mount region, where `apiKeys` and `port` are defined) are
// delegated: test/types compiles those files, test/mount runs them, pages.test.ts pins the copies
// in docs/mounting.md. KEEP_DOCS_TMP=1 keeps the written blocks in test/docs/.tmp/ to look at.

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
/** Inside the repo (so `petstore-service` resolves to it), dotted (so the repo's tsc skips it), one per run. */
const WORK = join(ROOT, 'test/docs/.tmp', `run-${process.pid}`);
const TIMEOUT_MS = 180_000;

const KNOWN_TAGS: Record<string, string[]> = {
  ts: ['deno', 'worker', 'playwright', 'next', 'run'],
  js: ['run'],
  sh: ['run'],
  json: [],
  yaml: ['prometheus'],
  toml: [],
  text: ['tree', 'output'],
  dockerfile: [],
};

const RECIPES = mountRecipes();
const code = BLOCKS.filter((block) => kindOf(block) === 'ts' || kindOf(block) === 'js');
const recipes = code.filter((block) => RECIPES.has(block.body));
const modules = code.filter((block) => !RECIPES.has(block.body));
const envOf = (block: Block) => block.tags.find((tag) => ['deno', 'worker', 'playwright', 'next'].includes(tag)) ?? 'node';
const extOf = (block: Block) => (kindOf(block) === 'ts' ? '.ts' : '.mjs');

/**
 * Where each exported type comes from, read from the built declarations: /storage first (the
 * contracts' home), then the root and /storage-conformance for what /storage does not have.
 */
function exportedTypes(): Map<string, string> {
  const names = new Map<string, string>();
  const entries = [
    ['petstore-service/storage', 'dist/storage/index.d.ts'],
    ['petstore-service', 'dist/index.d.ts'],
    ['petstore-service/storage-conformance', 'dist/storage-conformance/index.d.ts'],
  ] as const;
  for (const [entry, file] of entries) {
    if (!existsSync(join(ROOT, file))) continue;
    for (const name of declaredExports(file)) if (!names.has(name)) names.set(name, entry);
  }
  return names;
}

/**
 * What the test adds after a block: for each interface or type the block declares that the package
 * also exports, a check that the two are the same type, so a contract shown in the docs cannot
 * drift from the shipped one. It only adds errors; it declares nothing the block uses.
 */
function contractChecks(block: Block, exported: Map<string, string>): string {
  const declared = [...block.body.matchAll(/^(?:export\s+)?(?:interface|type)\s+(\w+)/gm)].map((m) => m[1]!).filter((name) => exported.has(name));
  return declared
    .map((name) =>
      [
        `// test/docs: ${block.file}'s ${name} must be the shipped ${name}`,
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

  // No package.json in node/, worker/ or playwright/: the repo's is the nearest, so `petstore-service` is the repo itself.
  // One tsc per environment for the blocks of every page: a tsc run costs seconds, a block almost nothing.
  const tsconfigs = {
    node: { compilerOptions: { ...TS_OPTIONS, module: 'node16', moduleResolution: 'node16', lib: ['ES2022'], types: ['node'] } },
    worker: { compilerOptions: { ...TS_OPTIONS, module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022', 'WebWorker', 'ESNext.Disposable'], types: [] } },
    playwright: { compilerOptions: { ...TS_OPTIONS, module: 'node16', moduleResolution: 'node16', lib: ['ES2022', 'DOM'], types: ['node'] } },
    next: { compilerOptions: { ...TS_OPTIONS, module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: ['node'] } },
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
        const { code, stdout, stderr } = await run(deno, ['check', '--quiet', fileStem(block) + extOf(block)], {
          cwd: dir,
          timeout: TIMEOUT_MS,
          env: { ...process.env, NO_COLOR: '1' },
        });
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
  if (existsSync(dirname(WORK)) && readdirSync(dirname(WORK)).length === 0) rmSync(dirname(WORK), { recursive: true, force: true });
});

describe('every fenced block of every page', () => {
  it('has a language and tags this test knows how to check', () => {
    const unknown = BLOCKS.filter((block) => {
      const kind = kindOf(block);
      return (
        kind === undefined || block.tags.some((tag) => !KNOWN_TAGS[kind]!.includes(tag)) || ((kind === 'text' || kind === 'yaml') && block.tags.length !== 1)
      );
    });
    expect(unknown.map((block) => `${where(block)}: \`\`\`${block.lang} ${block.tags.join(' ')}`.trim())).toEqual([]);
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
              ? block.tags.includes('tree')
                ? 'paths exist'
                : 'compared with the CLI output'
              : kind === 'json'
                ? 'parsed'
                : kind === 'toml'
                  ? "the example Worker's wrangler.toml"
                  : kind === 'yaml'
                    ? 'promtool check config'
                    : kind === 'dockerfile'
                      ? 'FROM the released image'
                      : 'UNKNOWN';
      return `  ${where(block)}: ${block.lang} → ${does}`;
    });
    console.info(`Doc blocks:\n${rows.join('\n')}`);
    expect(rows.length).toBe(BLOCKS.length);
  });
});

describe('TypeScript and JavaScript blocks', () => {
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
      const {
        code: exit,
        stdout,
        stderr,
      } = await run(process.execPath, [VITEST, 'run', '--config', 'vitest.config.mjs'], { cwd: dir, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
      expect(exit, `${stdout}${stderr}`).toBe(0);
      expect(stdout).toMatch(/Tests\s+\d+ passed/);
    },
    90_000,
  );
});

let cliHelp: string;
let initHelp: string;
const flagsIn = (help: string) => new Set([...help.matchAll(/(?<![\w-])(--?[a-z][\w-]*)/g)].map((m) => m[1]!));

/** The subcommands of podman and docker that docs/container.md uses. */
const CONTAINER_COMMANDS = ['run', 'volume', 'build', 'stop', 'start', 'healthcheck', 'logs', 'compose'];
/** What a compose recipe's lines do with it (test/container/compose.test.ts runs them). */
const COMPOSE_COMMANDS = ['up', 'run', 'down'];

/** What is wrong with `docker compose -f <file> <command> …`: a file not in the repository, or a command the recipes do not use. */
function composeProblems(engine: string, [flag, file, command]: string[]): string[] {
  if (flag !== '-f' || file === undefined) return [`${engine} compose: name the recipe's file with -f`];
  if (!existsSync(file)) return [`${engine} compose -f ${file}: no such file in the repository`];
  return COMPOSE_COMMANDS.includes(command ?? '') ? [] : [`${engine} compose ${command}: not a command the recipes use`];
}

/**
 * What is wrong with a `podman …` or `docker …` command: a subcommand the docs do not use, or a
 * `run` of the image with a variable (`-e NAME=…`) the command's --help does not name or a flag
 * after the image that it does not list.
 */
function containerProblems([engine, sub, ...rest]: string[], help: string): string[] {
  if (!CONTAINER_COMMANDS.includes(sub ?? '')) return [`${engine} ${sub}: not a subcommand these docs use`];
  if (sub === 'compose') return composeProblems(engine ?? '', rest);
  if (sub !== 'run') return [];
  const image = rest.findIndex((word) => /(^|\/)petstore-service:[\w.-]+$/.test(word));
  if (image < 0) return [`${engine} run: names no petstore-service image`];
  const problems: string[] = [];
  rest.slice(0, image).forEach((word, i) => {
    const name = ['-e', '--env'].includes(word) ? rest[i + 1]!.split('=')[0]! : undefined;
    if (name !== undefined && !new RegExp(`\\b${name}\\b`).test(help)) problems.push(`${engine} run -e ${name}: not a variable the command reads`);
  });
  const flags = flagsIn(help);
  for (const flag of rest.slice(image + 1).filter((word) => word.startsWith('-')))
    if (!flags.has(flag.split('=')[0]!)) problems.push(`${engine} run … ${flag}: not in --help`);
  return problems;
}

/** A `petstore-service …` line a run block starts with (`&` at its end): the command to start, not a line for bash. */
const startLine = (block: Block) =>
  /^(?:npx )?petstore-service( [^\n&]*)?&\s*$/m.exec(block.body.split('\n').find((line) => line.trim() && !line.startsWith('#')) ?? '');

describe('shell blocks', () => {
  beforeAll(async () => {
    const help = await run(process.execPath, [CLI, '--help']);
    expect(help.code, help.stderr).toBe(0);
    cliHelp = help.stdout;
    const init = await run(process.execPath, [CLI, 'init', '--help']);
    expect(init.code, init.stderr).toBe(0);
    initHelp = init.stdout;
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
          else if (
            sub === 'install' &&
            words
              .slice(2)
              .some(
                (name) =>
                  !name.startsWith('-') &&
                  !/^(petstore-service|express|postgres|redis|@electric-sql\/pglite|wrangler|testcontainers|@opentelemetry\/[a-z-]+)$/.test(name),
              )
          ) {
            problems.push(`npm install ${words.slice(2).join(' ')}: not a package these docs name`);
          } else if (!['run', 'start', 'test', 'install', 'ci'].includes(sub ?? '')) problems.push(`npm ${sub}: not a command this test knows`);
        } else if (command === 'petstore-service' || (command === 'npx' && sub === 'petstore-service')) {
          const args = command === 'npx' ? words.slice(2) : words.slice(1);
          const flags = args[0] === 'init' ? flagsIn(initHelp) : flagsIn(cliHelp);
          for (const flag of args.filter((w) => w.startsWith('-')))
            if (!flags.has(flag.split('=')[0]!)) problems.push(`petstore-service ${args[0] === 'init' ? 'init ' : ''}${flag}: not in --help`);
        } else if (command === 'npx' && sub === 'wrangler') {
          // docs/workers.md's deploy steps: the wrangler commands it names, nothing else.
          if (!['d1', 'secret', 'deploy', 'dev'].includes(script ?? '')) problems.push(`npx wrangler ${script}: not a wrangler command these docs use`);
        } else if (command === 'podman' || command === 'docker') problems.push(...containerProblems(words, cliHelp));
        else if (command === 'curl') problems.push(...curlProblems(words).map((p) => `curl: ${p}`));
        else problems.push(`${command}: not a command this test knows how to check`);
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(BLOCKS.filter((block) => kindOf(block) === 'sh' && block.tags.includes('run')).map((block) => [where(block), block] as const))(
    'the shell block at %s runs against a real petstore-service: every curl -i gets the status its comment names, else a 2xx',
    { tags: ['curl'], timeout: TIMEOUT_MS }, // skipped without curl, failed under CI (test/helpers/system-parts.ts)
    async (_, block) => {
      const origin = /^URL=(https?:\/\/[^/\s]+)/m.exec(block.body)?.[1];
      const start = startLine(block);
      const key = /^KEY=(\S+)/m.exec(block.body)?.[1];
      expect(origin && (start || key), 'the block sets URL=http://host:port/… and starts petstore-service … & or sets KEY=…').toBeTruthy();
      // The block's own flags, on a free port; or its key on the free plan.
      const flags = start
        ? shellCommands(start[1] ?? '')
            .flat()
            .filter((word, i, all) => word !== '--port' && word !== '-p' && all[i - 1] !== '--port' && all[i - 1] !== '-p')
        : ['--key', `${key}:free`];
      const server = spawn(process.execPath, [CLI, ...flags, '--port', '0'], { env: { ...process.env, PETSTORE_API_KEYS: '', PETSTORE_ADMIN_TOKEN: '' } });
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
        const body = start ? block.body.replace(start[0], '') : block.body;
        const script = `set -euo pipefail\n${body.split(origin!).join(url)}`;
        const { code: exit, stdout, stderr } = await run('bash', ['-c', script], { timeout: 30_000 });
        expect(exit, stderr).toBe(0);
        // A status line follows the previous body on its line when that body has no final newline.
        const statuses = [...stdout.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
        const named = curlExpectations(block.body);
        expect(statuses, stdout).toHaveLength(named.length);
        // "# Create a pet: 201 …" names the status the curl under it gets; a curl with no status named gets a 2xx.
        expect(
          statuses.map((status, index) => (named[index] ? status === named[index] : status >= 200 && status < 300) || `curl #${index + 1}: ${status}`),
          stdout,
        ).toEqual(statuses.map(() => true));
      } finally {
        server.kill();
      }
    },
  );
});

describe('text and JSON blocks', () => {
  it("every TOML block is the example Worker's wrangler.toml, which npm test runs", () => {
    const wrangler = readFileSync(join(ROOT, 'examples/mount/workers/wrangler.toml'), 'utf8');
    const other = BLOCKS.filter((block) => kindOf(block) === 'toml' && block.body !== wrangler).map(where);
    expect(other).toEqual([]);
  });

  it.each(BLOCKS.filter((block) => kindOf(block) === 'dockerfile').map((block) => [where(block), block] as const))(
    'the Dockerfile at %s builds on the image a release publishes',
    (_, block) => {
      expect(block.body.split('\n')[0]).toMatch(new RegExp(`^FROM ${IMAGE_REPOSITORY.replaceAll('.', '\\.')}:[\\w.-]+$`));
    },
  );

  it.each(BLOCKS.filter((block) => kindOf(block) === 'yaml' && block.tags.includes('prometheus')).map((block) => [where(block), block] as const))(
    'the Prometheus configuration at %s is one promtool check config accepts',
    { tags: ['promtool'] }, // skipped without promtool, failed under CI (test/helpers/system-parts.ts)
    async (_, block) => {
      const path = join(WORK, `${fileStem(block)}.yml`);
      mkdirSync(WORK, { recursive: true });
      writeFileSync(path, block.body);
      const checked = await run('promtool', ['check', 'config', path]);
      expect(checked.code, `${checked.stdout}${checked.stderr}`).toBe(0);
    },
  );

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
        const normalized = (text: string) =>
          text
            .trim()
            .split('\n')
            .slice(0, block.body.trim().split('\n').length)
            .map((line) => line.replace(/:\d{2,5}\//g, ':PORT/').replace(/[A-Za-z0-9_-]{32}/g, 'KEY'));
        expect(normalized(block.body)).toEqual(normalized(printed));
        expect(printed.trim().split('\n')).toHaveLength(block.body.trim().split('\n').length);
      } finally {
        server.kill();
      }
    },
  );
});
