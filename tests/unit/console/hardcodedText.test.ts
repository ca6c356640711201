/**
 * No hard-coded text in views (issue 14, spec §2 six languages): every .tsx file of the console is parsed with
 * the TypeScript compiler and searched for what a user reads that does not come from the language files —
 * JSX text with a word in it, and the string literals of the attributes people or screen readers read
 * (aria-label, title, placeholder, label, alt, description), and string literals that read as prose ("Packets
 * lost", "Created") wherever a view builds what it shows from them (lists of label/value pairs, arguments).
 * Example values in placeholders (a URL, a plate
 * "KX-4821": one token, no space) are not texts, nor is JSX text that is one abbreviation or unit read the same in
 * every language (CSV, PNG, fps).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../../src/console');
const READ_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'label', 'alt', 'description']);
const WORD = /\p{L}{2,}/u;
/** A capitalised word or phrase, as a label reads ("Device id", "Packets lost.", "Uptime:"). */
const PROSE = /^[A-Z][a-z]+(?:[ '-][a-zA-Z]+)*[.…:!?]?$/;
const ABBREVIATION = /^(?:[A-Z0-9]{2,5}|fps|ms|px|kB|MB|GB)$/;

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return tsxFiles(full);
    return name.endsWith('.tsx') ? [full] : [];
  });
}

/** The hard-coded texts of one .tsx source, as `line: text`. */
export function hardCodedTexts(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.getText(file).replace(/\s+/g, ' ').trim();
      if (WORD.test(text) && !ABBREVIATION.test(text)) found.push(`${at(node)}: ${text}`);
    } else if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(file);
      const init = node.initializer;
      const literal = ts.isStringLiteral(init)
        ? init.text
        : ts.isJsxExpression(init) && init.expression && ts.isStringLiteralLike(init.expression)
          ? init.expression.text
          : null;
      if (READ_ATTRIBUTES.has(name) && literal !== null && WORD.test(literal) && /\s/.test(literal.trim()))
        found.push(`${at(node)}: ${name}="${literal}"`);
    }
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && PROSE.test(node.text)) {
      const p = node.parent;
      // Not shown as such: imports, types, object keys, comparisons (e.key === 'Escape'), switch cases, the
      // key of t(), console messages, and attributes (the read ones are checked above).
      const notShown =
        ts.isImportDeclaration(p) ||
        ts.isLiteralTypeNode(p) ||
        (ts.isPropertyAssignment(p) && p.name === node) ||
        ts.isBinaryExpression(p) ||
        ts.isCaseClause(p) ||
        (ts.isCallExpression(p) && /^(t|i18n\.t|console\.\w+)$/.test(p.expression.getText(file))) ||
        ts.isJsxAttribute(p) ||
        (ts.isJsxExpression(p) && ts.isJsxAttribute(p.parent));
      if (!notShown) found.push(`${at(node)}: '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('no hard-coded text in views', () => {
  it('finds JSX text and read attributes (the check itself)', () => {
    const found = hardCodedTexts(
      'x.tsx',
      `export const A = () => (<div aria-label="Close it" title={'Two words'} placeholder="KX-4821">
         Hello there <b>{t('ok')}</b> · 42 % <i>CSV</i> {[['Packets lost', n], [t('x'), m]].map(show)}
         {e.key === 'Escape' ? t('Esc') : null}
       </div>);`,
    );
    expect(found).toEqual([
      '1: aria-label="Close it"',
      '1: title="Two words"',
      '2: Hello there',
      "2: 'Packets lost'",
    ]);
  });

  it.each(tsxFiles(ROOT).map((f) => path.relative(ROOT, f)))('%s', (rel) => {
    expect(hardCodedTexts(rel, readFileSync(path.join(ROOT, rel), 'utf8'))).toEqual([]);
  });
});
