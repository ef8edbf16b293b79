/** The last step of `npm run build`: the package's declarations (.d.ts, .d.cts) made smaller, with nothing a consumer's TypeScript reads changed. */

// After tsup, whose declaration builds end after every hook it offers. A tab for each four spaces
// rollup-plugin-dts indents with (a template literal's lines left alone, their spaces being its
// text), and no bare `import './chunk.js'` lines, which it leaves for chunks whose types the file
// does not use: such an import matters to types only when the chunk declares a global or augments
// a module, and that one is kept. 7,400 B of the package's budget when it came in
// (test/package/package.test.ts): 4,710 of indentation, 2,690 of bare imports.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** The published folder; the offline demo in it is not published and has no declarations. */
const DIST = 'dist';

/** Every declaration file under `folder`. */
function declarationFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return /\.d\.c?ts$/.test(entry.name) ? [path] : [];
  });
}

/** `text` parsed as a declaration file. */
const parsed = (file, text) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** Whether importing `file` changes what types mean: it declares a global or augments a module. */
function augments(file) {
  const source = parsed(file, readFileSync(file, 'utf8'));
  return source.statements.some(
    (statement) => ts.isModuleDeclaration(statement) && (ts.isStringLiteral(statement.name) || (statement.flags & ts.NodeFlags.GlobalAugmentation) !== 0),
  );
}

/** `text` without its bare imports of chunks that change no type. */
function withoutBareImports(file, text) {
  const dropped = parsed(file, text).statements.filter(
    (statement) =>
      ts.isImportDeclaration(statement) &&
      !statement.importClause &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text.startsWith('.') &&
      !augments(resolve(dirname(file), statement.moduleSpecifier.text.replace(/\.(c?)js$/, '.d.$1ts'))),
  );
  let out = text;
  for (const statement of dropped.reverse()) {
    const end = out[statement.end] === '\n' ? statement.end + 1 : statement.end;
    out = out.slice(0, statement.getStart()) + out.slice(end);
  }
  return out;
}

/** Where `text`'s template literals are, types' and values' alike: [start, end) pairs in order. */
function templateSpans(file, text) {
  const spans = [];
  const visit = (node) => {
    if (ts.isTemplateLiteralTypeNode(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node))
      spans.push([node.getStart(), node.end]);
    else ts.forEachChild(node, visit);
  };
  visit(parsed(file, text));
  return spans;
}

/** `text` with a tab for each four spaces that begin a line, but inside a template literal. */
function tabIndented(file, text) {
  const spans = templateSpans(file, text);
  let at = 0;
  return text.replace(/^(?: {4})+/gm, (spaces, offset) => {
    while (spans[at] && spans[at][1] <= offset) at++;
    if (spans[at] && spans[at][0] < offset) return spaces;
    return '\t'.repeat(spaces.length / 4);
  });
}

let before = 0;
let after = 0;
const files = declarationFiles(DIST);
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const compact = tabIndented(file, withoutBareImports(file, text));
  before += Buffer.byteLength(text);
  after += Buffer.byteLength(compact);
  if (compact !== text) writeFileSync(file, compact);
}
console.log(`Declarations: ${files.length} files, ${before} B to ${after} B (${before - after} B less)`);
