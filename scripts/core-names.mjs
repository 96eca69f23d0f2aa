// The core speaks its own language: no snake_case name in packages/domain/src or
// packages/application/src. The API's field names (customer_id, created_at) are the HTTP
// adapter's to map (packages/adapter-http-koa/src/wire-names.ts). Read with the TypeScript
// compiler's parser, so that comments and prose in strings are not names:
//   - identifiers (variables, parameters, properties, types);
//   - property names written as strings ({ 'customer_id': 1 }, x['customer_id']) and string
//     keys of object types (Record<'a_b', T>, Pick<T, 'a_b'>, T['a_b'], { [K in 'a_b']: T });
//   - the field a field error names (fieldError('customer_id', ...), { field: 'customer_id' });
//   - any other string that is a snake_case name (prose with one in it is not), unless it is a value of a declared code type (a literal type
//     such as FieldErrorCode's 'invalid_value' or a port's 'version_mismatch'): error codes are
//     contract values, not names. So a sort field list ['created_at'] is caught too.
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const coreDirs = ['packages/domain/src', 'packages/application/src'];

/** A whole name of words joined by underscores, at least one in lower case (SCREAMING_CASE is not). */
const isSnake = (name) => /^_*[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)+_*$/.test(name) && /[a-z]/.test(name);

const sources = (dir) =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });

const isStringLike = (n) => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);

/** Whether a literal type stands where a key of an object type goes (through unions and parentheses). */
const isKeyType = (literal) => {
  let n = literal;
  while (ts.isUnionTypeNode(n.parent) || ts.isParenthesizedTypeNode(n.parent)) n = n.parent;
  const p = n.parent;
  if (ts.isIndexedAccessTypeNode(p)) return p.indexType === n;
  if (ts.isTypeParameterDeclaration(p)) return ts.isMappedTypeNode(p.parent) && p.constraint === n;
  if (ts.isTypeReferenceNode(p) && ts.isIdentifier(p.typeName)) {
    const at = p.typeArguments?.indexOf(n) ?? -1;
    return (p.typeName.text === 'Record' && at === 0) || (['Pick', 'Omit'].includes(p.typeName.text) && at === 1);
  }
  return false;
};

/** What a string literal (in an expression) names, if it names anything; null for a plain value. */
const namedBy = (s) => {
  const p = s.parent;
  if (
    (ts.isPropertyAssignment(p) ||
      ts.isPropertySignature(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isMethodDeclaration(p)) &&
    p.name === s
  )
    return 'property name';
  if (ts.isComputedPropertyName(p)) return 'property name';
  if (ts.isElementAccessExpression(p) && p.argumentExpression === s) return 'property name';
  if (
    ts.isCallExpression(p) &&
    ts.isIdentifier(p.expression) &&
    p.expression.text === 'fieldError' &&
    p.arguments[0] === s
  )
    return 'field of a field error';
  if (ts.isPropertyAssignment(p) && p.initializer === s && ts.isIdentifier(p.name) && p.name.text === 'field')
    return 'field of a field error';
  return null;
};

/** Every snake_case name in the core's sources: `file:line: what "name"`, one a line. */
export const snakeCaseNames = (root, files = coreDirs.flatMap((d) => sources(join(root, d)))) => {
  const parsed = files.map((file) => ({
    file,
    sf: ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
  }));
  // The declared code values: snake_case literal types anywhere but in a key position.
  const codes = new Set();
  const found = [];
  const visitTypes = (n) => {
    if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal) && isSnake(n.literal.text) && !isKeyType(n))
      codes.add(n.literal.text);
    ts.forEachChild(n, visitTypes);
  };
  for (const { sf } of parsed) visitTypes(sf);
  for (const { file, sf } of parsed) {
    const report = (n, what, name) =>
      found.push(
        `${relative(root, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${what} "${name}"`,
      );
    const visit = (n) => {
      if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) {
        if (isSnake(n.text)) report(n, 'identifier', n.text);
      } else if (ts.isLiteralTypeNode(n) && isStringLike(n.literal)) {
        if (isSnake(n.literal.text) && isKeyType(n)) report(n, 'key of an object type', n.literal.text);
        return;
      } else if (
        isStringLike(n) &&
        !ts.isImportDeclaration(n.parent) &&
        !ts.isExportDeclaration(n.parent) &&
        isSnake(n.text)
      ) {
        const what = namedBy(n);
        if (what !== null) report(n, what, n.text);
        else if (!codes.has(n.text)) report(n, 'string that is no declared code', n.text);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
};
