/**
 * What the doc tests share: the pages (README.md and every docs/*.md), their fenced blocks, and the
 * readers that check a block's words (shell commands, curl lines, trees) without running them.
 * blocks.test.ts checks every block of every page; pages.test.ts checks the pages as a whole.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve('.');
export const CLI = join(ROOT, 'dist/cli/index.js');

/** One page: its path from the repo root (`docs/testing.md`) and its text. */
export interface Page {
  readonly file: string;
  readonly text: string;
}

/** docs/*.md, sorted: the reference pages README.md links to. */
export const DOC_FILES = existsSync(join(ROOT, 'docs'))
  ? readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`)
  : [];

/** README.md first, then every docs page. */
export const PAGES: readonly Page[] = ['README.md', ...DOC_FILES].map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

/** The doc-tested pages, and CONTRIBUTING.md: every relative link of these must land. */
export const LINKED_PAGES: readonly Page[] = [...PAGES, { file: 'CONTRIBUTING.md', text: readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8') }];

export const page = (file: string): Page => {
  const found = LINKED_PAGES.find((p) => p.file === file);
  if (!found) throw new Error(`${file} is missing`);
  return found;
};

export interface Block {
  /** The page it is on. */
  readonly file: string;
  /** Line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly tags: readonly string[];
  readonly body: string;
  /** The heading it sits under. */
  readonly section: string;
}

/** Every fenced block of a page, in order, with the nearest heading above it. */
export function fencedBlocks({ file, text }: Page): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let section = '(top)';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6}\s+(.*)$/.exec(lines[i]!);
    if (heading) section = heading[1]!.replace(/`/g, '');
    const open = /^(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, fence, info] = open as unknown as [string, string, string];
    const close = lines.findIndex((line, j) => j > i && new RegExp(`^${fence[0]}{${fence.length},}\\s*$`).test(line));
    if (close < 0) throw new Error(`${file}:${i + 1}: a fence that never closes`);
    const [lang = '', ...tags] = info.trim().split(/\s+/).filter(Boolean);
    blocks.push({ file, line: i + 1, lang: lang.toLowerCase(), tags, body: lines.slice(i + 1, close).join('\n') + '\n', section });
    i = close;
  }
  return blocks;
}

/** The page's text outside its fenced blocks: where links and headings are. */
export function prose({ text }: Page): string {
  return text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[`~]*\s*$/gm, '');
}

export const BLOCKS: readonly Block[] = PAGES.flatMap(fencedBlocks);

const CODE_LANGS = ['ts', 'typescript', 'js', 'javascript'];
const SHELL_LANGS = ['sh', 'bash', 'console', 'shell'];
export type Kind = 'ts' | 'js' | 'sh' | 'text' | 'json' | 'toml' | 'yaml' | 'dockerfile';
export const kindOf = (block: Block): Kind | undefined =>
  CODE_LANGS.includes(block.lang)
    ? block.lang.startsWith('t')
      ? 'ts'
      : 'js'
    : SHELL_LANGS.includes(block.lang)
      ? 'sh'
      : ['text', 'plain', 'txt'].includes(block.lang)
        ? 'text'
        : block.lang === 'json'
          ? 'json'
          : block.lang === 'toml'
            ? 'toml'
            : ['yaml', 'yml'].includes(block.lang)
              ? 'yaml'
              : block.lang === 'dockerfile'
                ? 'dockerfile'
                : undefined;
export const where = (block: Block) => `${block.file}:${block.line} (${block.section})`;
/** A file name for the block, unique across pages: `docs-testing-L12`. */
export const fileStem = (block: Block) =>
  `${block.file
    .replace(/\.md$/, '')
    .replace(/[^\w]+/g, '-')
    .toLowerCase()}-L${block.line}`;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a page's headings. */
export function anchorsOf(pageToRead: Page): Set<string> {
  return new Set([...prose(pageToRead).matchAll(/^#{1,6}\s+(.*)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** Every Markdown link target of a page's prose, as written (`docs/testing.md#faults`). */
export function linkTargets(pageToRead: Page): string[] {
  return [...prose(pageToRead).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** A relative link resolved to a path from the repo root, and its anchor. */
export function resolveLink(from: string, target: string): { path: string; anchor?: string } {
  const [path = '', anchor] = target.split('#') as [string, string?];
  return { path: path ? relative(ROOT, resolve(ROOT, dirname(from), path)) : from, anchor };
}

/** The `// #region recipe` of every examples/mount file: blocks equal to one are the mount recipes. */
export function mountRecipes(): Map<string, string> {
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

/** Runs a command to its end: exit code and output, never a throw, so a failure shows the tool's own words. */
export async function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { maxBuffer: 16 * 1024 * 1024, timeout: 60_000, ...options });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout = '', stderr = '', signal } = error as { code?: number; stdout?: string; stderr?: string; signal?: string };
    return { code: typeof code === 'number' ? code : 1, stdout, stderr: `${stderr}${signal ? `\n(killed by ${signal})` : ''}` };
  }
}

/** Names an entry's built declarations export (`dist/testing/index.d.ts`), `X as Y` read as `Y`. */
export function declaredExports(dtsFile: string): string[] {
  const names: string[] = [];
  for (const [, list] of readFileSync(join(ROOT, dtsFile), 'utf8').matchAll(/^export \{([^}]*)\}/gm)) {
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)!;
      if (name) names.push(name);
    }
  }
  return names;
}

/** Shell words of one command line, quotes removed; `$VAR` left as written. Throws on an unclosed quote. */
export function shellWords(text: string): string[] {
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

/** The commands of a shell block: continuation lines joined, comments dropped, split at && ; | and a trailing &. */
export function shellCommands(body: string): string[][] {
  const commands: string[][] = [];
  for (const line of body.replace(/\\\n/g, ' ').split('\n')) {
    let words = shellWords(line);
    while (words.length > 0) {
      const cut = words.findIndex((w) => ['&&', '||', ';', '|', '&'].includes(w));
      commands.push(cut < 0 ? words : words.slice(0, cut));
      words = cut < 0 ? [] : words.slice(cut + 1);
    }
  }
  return commands.filter((command) => command.length > 0);
}

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** What is wrong with one curl command, if anything: unknown options, bad headers, a body that is not JSON, not one URL. */
export function curlProblems(words: string[]): string[] {
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
export function curlExpectations(body: string): (number | undefined)[] {
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

/**
 * Paths of a tree: an entry's names (its first column: `src/`, `deno/ bun/`) are children of the
 * entry it is indented under; a word in its description that looks like a path (`routes.ts`,
 * `unit/`) is in the entry's folder or, failing that, the repo's. `<name>` stands for any folder.
 * A line indented to the description column continues the entry above.
 */
export function missingTreePaths(tree: string): string[] {
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
