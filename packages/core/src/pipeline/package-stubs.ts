/**
 * Ambient modules for the packages a generated project imports (they are not installed when its
 * types are checked): see {@link packageStubs}.
 */
import type TS from 'typescript-checker';
import { ts } from './typescript-lazy.js';

interface NameTree {
  children: Map<string, NameTree>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with implements interface let package private protected public static yield any boolean number string symbol type never unknown object undefined'.split(' '),
);

function addChain(tree: NameTree, chain: readonly string[]): void {
  let node = tree;
  for (const name of chain) {
    if (!IDENTIFIER.test(name) || RESERVED.has(name)) return;
    let child = node.children.get(name);
    if (!child) {
      child = { children: new Map() };
      node.children.set(name, child);
    }
    node = child;
  }
}

/** `a.b.c` as ['a', 'b', 'c'] when it is a plain chain of names. */
function chainOf(node: TS.Node): string[] | null {
  if (ts.isIdentifier(node)) return [node.text];
  if (ts.isQualifiedName(node)) {
    const left = chainOf(node.left);
    return left && [...left, node.right.text];
  }
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) {
    const left = chainOf(node.expression);
    return left && [...left, node.name.text];
  }
  return null;
}

const TYPE_PARAMS = '<_0 = any, _1 = any, _2 = any, _3 = any, _4 = any, _5 = any>';

function emitTypes(tree: NameTree, indent: string): string {
  let out = '';
  for (const [name, child] of tree.children) {
    out +=
      child.children.size === 0
        ? `${indent}export type ${name}${TYPE_PARAMS} = any;\n`
        : `${indent}export namespace ${name} {\n${emitTypes(child, `${indent}  `)}${indent}}\n`;
  }
  return out;
}

/**
 * Modules for the packages the project imports, typed as loosely as `declare module '*'` but
 * usable in type positions too: every name the project imports from a package, or reaches
 * through its default or namespace import (`React.FC<P>`, `React.JSX.Element`), is both an
 * `any` value and an `any` type that takes type arguments.
 */
export function packageStubs(sources: readonly TS.SourceFile[], isLocal: (specifier: string, importer: string) => boolean): string {
  const trees = new Map<string, NameTree>();
  // @types/react also declares a global `React` namespace: `React.FC` without an import.
  const globalReact: NameTree = { children: new Map() };
  const treeFor = (specifier: string): NameTree => {
    let tree = trees.get(specifier);
    if (!tree) {
      tree = { children: new Map() };
      trees.set(specifier, tree);
    }
    return tree;
  };
  for (const source of sources) {
    const importer = source.fileName.slice(1);
    const locals = new Map<string, NameTree>();
    for (const statement of source.statements) {
      const moduleSpecifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : null;
      if (moduleSpecifier === null || moduleSpecifier.startsWith('.') || isLocal(moduleSpecifier, importer)) continue;
      const tree = treeFor(moduleSpecifier);
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (clause?.name) locals.set(clause.name.text, tree);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) locals.set(bindings.name.text, tree);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) addChain(tree, [(element.propertyName ?? element.name).text]);
        }
      } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) addChain(tree, [(element.propertyName ?? element.name).text]);
      }
    }
    if (!locals.has('React')) locals.set('React', globalReact);
    // Top-down, so the first chain met is the longest (`React.JSX.Element`, not `React.JSX`).
    const visit = (node: TS.Node): void => {
      if (ts.isQualifiedName(node) || ts.isPropertyAccessExpression(node)) {
        const chain = chainOf(node);
        const tree = chain && chain.length > 1 ? locals.get(chain[0]!) : undefined;
        if (tree && chain) addChain(tree, chain.slice(1));
        if (chain) return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  let out = globalReact.children.size > 0 ? `declare namespace React {\n${emitTypes(globalReact, '  ')}}\n` : '';
  for (const [specifier, tree] of trees) {
    out += `declare module ${JSON.stringify(specifier)} {\n`;
    for (const name of tree.children.keys()) out += `  export const ${name}: any;\n`;
    out += emitTypes(tree, '  ');
    out += `  const __wolfpack_default: any;\n  namespace __wolfpack_default {\n${emitTypes(tree, '    ')}  }\n  export default __wolfpack_default;\n}\n`;
  }
  return out;
}
