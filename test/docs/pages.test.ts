/**
 * The pages as a whole: README.md is a newcomer's path (at most 200 lines, install, the three uses,
 * a link to every docs/ page), every relative link of every page lands on a file and heading that
 * exist, and the tables that repeat a list kept in code (the entries, the flags, the options, the
 * mount recipes) name exactly what the code has. Reads the built package (dist/) like blocks.test.ts.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BLOCKS,
  CLI,
  DOC_FILES,
  LINKED_PAGES,
  PAGES,
  ROOT,
  anchorsOf,
  declaredExports,
  fencedBlocks,
  kindOf,
  linkTargets,
  missingTreePaths,
  mountRecipes,
  page,
  prose,
  resolveLink,
  run,
} from './markdown.ts';

const README = page('README.md');
const MAX_README_LINES = 200;
const MIN_DOC_PAGES = 5;

describe('README.md is a path, not a manual', () => {
  it(`is at most ${MAX_README_LINES} lines`, () => {
    expect(README.text.trimEnd().split('\n').length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('says how to install the package, in a shell block', () => {
    const installs = BLOCKS.filter((block) => block.file === 'README.md' && kindOf(block) === 'sh' && /^npm install petstore-service$/m.test(block.body));
    expect(installs).toHaveLength(1);
  });

  it('shows each of the three uses with a block that is checked, and runs the test-kit one and the curls', () => {
    const sectionOf = (pattern: RegExp) => BLOCKS.filter((block) => block.file === 'README.md' && pattern.test(block.section));
    const server = sectionOf(/your server/i).filter((block) => kindOf(block) === 'js' || kindOf(block) === 'ts');
    const worker = sectionOf(/service worker/i).filter((block) => block.tags.includes('worker'));
    const tests = sectionOf(/tests/i).filter((block) => kindOf(block) === 'ts' && block.tags.includes('run'));
    const tryIt = sectionOf(/try it/i).filter((block) => kindOf(block) === 'sh' && block.tags.includes('run'));
    expect({ server: server.length, worker: worker.length, tests: tests.length, tryIt: tryIt.length }).toEqual({ server: 1, worker: 1, tests: 1, tryIt: 1 });
  });

  it(`has at least ${MIN_DOC_PAGES} reference pages beside it in docs/`, () => {
    expect(DOC_FILES.length).toBeGreaterThanOrEqual(MIN_DOC_PAGES);
  });

  it('links every docs/ page', () => {
    const linked = new Set(linkTargets(README).map((target) => resolveLink('README.md', target).path));
    expect(DOC_FILES.filter((file) => !linked.has(file))).toEqual([]);
  });
});

describe('links', () => {
  it.each(LINKED_PAGES.map((p) => [p.file, p] as const))('every relative link of %s points at a file, folder or heading that exists', (_, from) => {
    const broken: string[] = [];
    for (const target of linkTargets(from)) {
      if (/^[a-z]+:/.test(target)) continue;
      const { path, anchor } = resolveLink(from.file, target);
      if (path.startsWith('..') || !existsSync(join(ROOT, path))) broken.push(`${target} (no ${path})`);
      else if (anchor) {
        if (!path.endsWith('.md') || statSync(join(ROOT, path)).isDirectory()) broken.push(`${target} (an anchor into a file that is not Markdown)`);
        else if (!anchorsOf({ file: path, text: readFileSync(join(ROOT, path), 'utf8') }).has(anchor))
          broken.push(`${target} (no heading #${anchor} in ${path})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page names a repository file in backticks that is not there', () => {
    const missing: string[] = [];
    for (const p of LINKED_PAGES) {
      for (const [, path] of prose(p).matchAll(/`((?:src|compose|controls|runtimes|stores|testing|cli|examples|test|bench|scripts|docs)\/[\w./<>-]*)`/g)) {
        if (!path!.includes('<') && !existsSync(join(ROOT, path!))) missing.push(`${p.file}: ${path}`);
      }
      // A page of the repo named alone (`CONTRIBUTING.md`) is at its root.
      for (const [, name] of prose(p).matchAll(/`([\w.-]+\.md)`/g)) if (!existsSync(join(ROOT, name!))) missing.push(`${p.file}: ${name}`);
    }
    expect(missing).toEqual([]);
  });
});

/** The rows of the Markdown table whose first header cell is `first` (padded or not): each row's cells. */
function tableRows(text: string, first: string): string[][] {
  const lines = text.split('\n');
  const cells = (line: string) =>
    line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim());
  const start = lines.findIndex((line) => line.startsWith('|') && cells(line)[0] === first);
  if (start < 0) throw new Error(`no table whose first column is "${first}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

/** Backticked words of a cell. */
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe("CONTRIBUTING.md's map", () => {
  it('names only paths that exist', () => {
    const maps = fencedBlocks(page('CONTRIBUTING.md')).filter((block) => block.lang === 'text' && block.tags.includes('tree'));
    expect(maps.length).toBeGreaterThan(0);
    expect(maps.flatMap((block) => missingTreePaths(block.body))).toEqual([]);
  });
});

describe('tables that repeat a list kept in code', () => {
  let cliHelp: string;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does)');
    const help = await run(process.execPath, [CLI, '--help']);
    expect(help.code, help.stderr).toBe(0);
    cliHelp = help.stdout;
  });

  it("README's entry table lists every entry of package.json exports, and only names each entry exports", () => {
    const exportsMap = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports as Record<string, unknown>;
    const entries = Object.keys(exportsMap)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'petstore-service' : `petstore-service${subpath.slice(1)}`));
    const rows = tableRows(README.text, 'Import');
    const listed: string[] = [];
    const wrong: string[] = [];
    for (const [imports = '', gives = ''] of rows) {
      // `petstore-service/deno`, `/bun`: a short form continues the full one before it.
      const names = ticked(imports).map((name) => (name.startsWith('/') ? `petstore-service${name}` : name));
      listed.push(...names);
      for (const entry of names) {
        const dts = entry === 'petstore-service' ? 'dist/index.d.ts' : `dist/${entry.slice('petstore-service/'.length)}/index.d.ts`;
        if (!existsSync(join(ROOT, dts))) {
          wrong.push(`${entry}: not built (${dts})`);
          continue;
        }
        const exported = new Set(declaredExports(dts));
        for (const name of ticked(gives)) if (/^\w+$/.test(name) && !exported.has(name)) wrong.push(`${entry} does not export ${name}`);
      }
    }
    expect([...listed].sort()).toEqual([...entries].sort());
    expect(wrong).toEqual([]);
  });

  it("docs/command.md's table names only flags and variables --help lists, and the page names every flag --help lists", () => {
    const command = page('docs/command.md');
    const rows = tableRows(command.text, 'Setting');
    expect(rows.length).toBeGreaterThan(0);
    const helpFlags = new Set([...cliHelp.matchAll(/(?<![\w-])(--[a-z][\w-]*)/g)].map((m) => m[1]!));
    const problems: string[] = [];
    for (const [, flags = '', env = ''] of rows) {
      for (const [, flag] of flags.matchAll(/`(--?[a-z][\w-]*)/g))
        if (!cliHelp.match(new RegExp(`(?<![\\w-])${flag}(?![\\w-])`))) problems.push(`${flag}: not in --help`);
      for (const name of ticked(env)) if (/^[A-Z_]+$/.test(name) && !cliHelp.includes(`env ${name}`)) problems.push(`${name}: not in --help`);
    }
    for (const flag of helpFlags) if (!command.text.includes(`\`${flag}`)) problems.push(`${flag}: --help lists it, docs/command.md does not`);
    expect(problems).toEqual([]);
  });

  it("docs/container.md's table names every variable --help lists, each with its flag", () => {
    const rows = tableRows(page('docs/container.md').text, 'Variable');
    const problems: string[] = [];
    const named = new Set<string>();
    for (const [variables = '', flags = ''] of rows) {
      const [names, flagNames] = [ticked(variables), ticked(flags)];
      if (names.length !== flagNames.length) problems.push(`${variables}: not one flag per variable`);
      names.forEach((name, i) => {
        named.add(name);
        // --help says `--data <dir> … (env PETSTORE_DATA)`: the variable within the flag's own lines.
        const lines = new RegExp(`(?<![\\w-])${flagNames[i]}(?![\\w-])(?:(?!\\n {2,6}-)[\\s\\S])*env ${name}\\b`);
        if (!lines.test(cliHelp)) problems.push(`${name}: --help does not give it for ${flagNames[i]}`);
      });
    }
    for (const [, name] of cliHelp.matchAll(/env ([A-Z_]+)/g))
      if (!named.has(name!)) problems.push(`${name}: --help reads it, docs/container.md does not list it`);
    expect(problems).toEqual([]);
  });

  it("docs/options.md's table names exactly the options createPetStore accepts", async () => {
    const { createPetStore } = (await import(join(ROOT, 'dist/index.js'))) as typeof import('petstore-service');
    let message = '';
    try {
      createPetStore({ notAnOption: true } as never);
    } catch (error) {
      message = (error as Error).message;
    }
    const accepted = /the options are (.*)$/.exec(message)?.[1]?.split(', ');
    expect(accepted, message).toBeDefined();
    const documented = tableRows(page('docs/options.md').text, 'Option').map(([name = '']) => ticked(name)[0]);
    expect([...documented].sort()).toEqual([...accepted!].sort());
  });

  it("docs/errors.md's table and its code map (which tsc holds to ErrorCode) name the same codes and statuses", () => {
    const errors = page('docs/errors.md');
    const table = tableRows(errors.text, 'Status').map(([status = '', code = '']) => `${ticked(code)[0]} ${status}`);
    const map = BLOCKS.find((block) => block.file === errors.file && block.body.includes('satisfies Record<ErrorCode, number>'));
    expect(map, 'a ts block with the code map').toBeDefined();
    const mapped = [...map!.body.matchAll(/^\s+(\w+): (\d{3}),$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect([...table].sort()).toEqual([...mapped].sort());
  });

  it('docs/mounting.md shows every examples/mount recipe, byte for byte, under the heading that names its npm script', () => {
    const mounting = page('docs/mounting.md');
    const missing: string[] = [];
    for (const [recipe, file] of mountRecipes()) {
      const script = Object.entries(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>).find(([, command]) =>
        // The file itself (node examples/mount/express/index.js), or its folder's runner (examples/mount/workers/dev.mjs).
        command.includes(`${dirname(file)}/`),
      )?.[0];
      const block = BLOCKS.find((b) => b.file === mounting.file && b.body === recipe);
      if (!script) missing.push(`${file}: no npm script runs it`);
      else if (!block) missing.push(`${file}: its recipe is not a block of docs/mounting.md`);
      else if (!block.section.includes(`npm run ${script}`))
        missing.push(`${file}: its block is under "${block.section}", not a heading naming npm run ${script}`);
    }
    expect(missing).toEqual([]);
  });

  it('the service worker sizes the pages state are the built ones, within a tenth', () => {
    // "about 133 kB minified", "about 44 kB gzipped": what `init` copies, as built.
    const script = readFileSync(join(ROOT, 'dist/worker/petstore-service-worker.js'));
    const built = { minified: script.length, gzipped: gzipSync(script).length };
    const claims = PAGES.flatMap((p) =>
      [...prose(p).matchAll(/about (\d+)\s+kB\s+(minified|gzipped)/g)].map((m) => ({ file: p.file, kB: Number(m[1]), form: m[2] as keyof typeof built })),
    );
    expect(claims.length).toBeGreaterThan(0);
    const wrong = claims.filter(({ kB, form }) => Math.abs(kB * 1000 - built[form]) > built[form] / 10);
    expect(wrong.map(({ file, kB, form }) => `${file}: about ${kB} kB ${form}, built ${built[form]} B`)).toEqual([]);
  });
});
