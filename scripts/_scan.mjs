import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
const snake = /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/;
const walk = (d) => readdirSync(d).flatMap((f) => { const p = join(d, f); return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : []; });
for (const dir of process.argv.slice(2)) for (const file of walk(dir)) {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (n) => {
    let name;
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) name = n.text;
    else if (ts.isStringLiteral(n) && n.parent && (ts.isPropertyAssignment(n.parent) || ts.isPropertySignature(n.parent) || ts.isLiteralTypeNode(n.parent) || ts.isElementAccessExpression(n.parent)) ) name = n.text;
    else if (ts.isStringLiteral(n)) name = n.text;
    if (name && snake.test(name)) { const { line } = sf.getLineAndCharacterOfPosition(n.getStart()); console.log(`${file}:${line + 1}: ${ts.SyntaxKind[n.kind]} ${name} [${n.parent ? ts.SyntaxKind[n.parent.kind] : ''}]`); }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
