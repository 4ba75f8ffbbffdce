/**
 * Ambient modules standing in for the packages a generated project imports when their real
 * declarations are not at hand (nothing was installed, or a package ships no types): see
 * {@link packageStubs}. A stand-in must never be the reason correct code is reported, so every
 * name the project reaches in a package is a value, a type and a namespace at once, all `any`.
 */
import type TS from 'typescript-checker';
import { ts } from './typescript-lazy.js';

interface NameTree {
  children: Map<string, NameTree>;
}

/** What the project's own `declare module 'pkg' { … }` augmentation declares, so the stand-in does not clash with it. */
interface Augmentation {
  values: Set<string>;
  /** Type names: an interface's type parameter list as written ('' for none), null for a class, enum or type alias. */
  types: Map<string, string | null>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Words no declaration can be named (an ambient module is strict code).
const KEYWORDS = new Set(
  'arguments await break case catch class const continue debugger default delete do else enum eval export extends false finally for function if import in instanceof new null return super switch this throw true try typeof undefined var void while with implements interface let package private protected public static yield'.split(
    ' ',
  ),
);
// Predefined type names: fine for a value (`z.object`, `z.string`), not for a type or a namespace.
const TYPE_NAMES = new Set('any bigint boolean intrinsic never number object string symbol type unknown'.split(' '));

const newTree = (): NameTree => ({ children: new Map() });

/** Adds `a.b.c` below `tree`; the node of the last name, or null when a name cannot be declared. */
function addChain(tree: NameTree, chain: readonly string[]): NameTree | null {
  let node = tree;
  for (const name of chain) {
    if (!IDENTIFIER.test(name) || KEYWORDS.has(name)) return null;
    let child = node.children.get(name);
    if (!child) {
      child = newTree();
      node.children.set(name, child);
    }
    node = child;
  }
  return node;
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

// Real libraries' generic types rarely take more than a few arguments; each one is optional.
const TYPE_PARAMS = '<_0 = any, _1 = any, _2 = any, _3 = any, _4 = any, _5 = any, _6 = any, _7 = any>';

/**
 * The type and namespace side of each name. Namespaces hold types only, so they stay
 * non-instantiated and merge with the `const` of the same name: `z` is a value (`z.object()`), a
 * type (`let s: z`) and a namespace (`z.infer<T>`).
 */
function emitTypes(tree: NameTree, indent: string, augmented?: Augmentation): string {
  let out = '';
  for (const [name, child] of tree.children) {
    if (TYPE_NAMES.has(name)) continue;
    const own = augmented?.types.get(name);
    if (own === undefined) out += `${indent}export type ${name}${TYPE_PARAMS} = any;\n`;
    // The project adds members to this interface: an open interface it can merge with.
    else if (own !== null) out += `${indent}export interface ${name}${own} { [key: string]: any }\n`;
    if (child.children.size > 0) out += `${indent}export namespace ${name} {\n${emitTypes(child, `${indent}  `)}${indent}}\n`;
  }
  return out;
}

function augmentationOf(body: TS.ModuleBody | undefined, source: TS.SourceFile): Augmentation {
  const found: Augmentation = { values: new Set(), types: new Map() };
  if (!body || !ts.isModuleBlock(body)) return found;
  for (const statement of body.statements) {
    if (ts.isInterfaceDeclaration(statement)) {
      const params = statement.typeParameters;
      found.types.set(statement.name.text, params ? `<${params.map((p) => p.getText(source)).join(', ')}>` : '');
    } else if ((ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      found.values.add(statement.name.text);
      found.types.set(statement.name.text, null);
    } else if (ts.isTypeAliasDeclaration(statement)) found.types.set(statement.name.text, null);
    else if (ts.isFunctionDeclaration(statement) && statement.name) found.values.add(statement.name.text);
    else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) found.values.add(declaration.name.text);
    }
  }
  return found;
}

export interface PackageStubOptions {
  /** Declare the global `React` namespace @types/react brings (`React.FC` without an import). Off when the real one is installed. @default true */
  globalReact?: boolean;
}

/** What one file binds to packages, and the name chains it uses. */
interface FileNames {
  /** Local name -> what it stands for in a package (a module, or a name in one). */
  locals: Map<string, NameTree>;
  /** Names imported from the project's own modules (which may re-export a package's). */
  fromProject: Set<string>;
  chains: string[][];
}

/**
 * Modules for the packages the project imports, typed as loosely as `declare module '*'` but
 * usable in type positions too: every name the project imports from a package, or reaches
 * through any import of it (`React.FC<P>`, `z.infer<T>`, `React.JSX.Element`, a name re-exported
 * by a project module), is an `any` value, an `any` type taking up to 8 type arguments, and a
 * namespace of the names reached through it. Packages the project declares itself (an ambient
 * `declare module 'pkg'` in a script or .d.ts) get no stand-in; augmentations get one they merge with.
 */
export function packageStubs(sources: readonly TS.SourceFile[], isLocal: (specifier: string, importer: string) => boolean, options: PackageStubOptions = {}): string {
  const trees = new Map<string, NameTree>();
  const augmentations = new Map<string, Augmentation[]>();
  const declaredByProject = new Set<string>();
  /** Package bindings by every name the project may know them by (local and exported names), project-wide. */
  const byName = new Map<string, NameTree[]>();
  const globalReact = newTree();
  const treeFor = (specifier: string): NameTree => {
    let tree = trees.get(specifier);
    if (!tree) trees.set(specifier, (tree = newTree()));
    return tree;
  };
  const known = (name: string, tree: NameTree) => byName.set(name, [...(byName.get(name) ?? []), tree]);

  const files = sources.map((source): FileNames => {
    const importer = source.fileName.slice(1);
    const names: FileNames = { locals: new Map(), fromProject: new Set(), chains: [] };
    const bind = (local: string, tree: NameTree) => {
      names.locals.set(local, tree);
      known(local, tree);
    };
    const isPackage = (specifier: string) => !specifier.startsWith('.') && !specifier.includes('*') && !isLocal(specifier, importer);
    for (const statement of source.statements) {
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        const clause = statement.importClause;
        const bindings = clause?.namedBindings;
        if (!isPackage(statement.moduleSpecifier.text)) {
          if (clause?.name) names.fromProject.add(clause.name.text);
          if (bindings && ts.isNamespaceImport(bindings)) names.fromProject.add(bindings.name.text);
          if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.fromProject.add(element.name.text);
          continue;
        }
        const tree = treeFor(statement.moduleSpecifier.text);
        if (clause?.name) bind(clause.name.text, tree);
        if (bindings && ts.isNamespaceImport(bindings)) bind(bindings.name.text, tree);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            const imported = (element.propertyName ?? element.name).text;
            const node = imported === 'default' ? tree : addChain(tree, [imported]);
            if (node) bind(element.name.text, node);
          }
        }
      } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        if (!isPackage(statement.moduleSpecifier.text)) continue;
        const tree = treeFor(statement.moduleSpecifier.text);
        const clause = statement.exportClause;
        if (clause && ts.isNamespaceExport(clause)) known(clause.name.text, tree);
        if (clause && ts.isNamedExports(clause)) {
          for (const element of clause.elements) {
            const node = addChain(tree, [(element.propertyName ?? element.name).text]);
            if (node) known(element.name.text, node);
          }
        }
      } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference) && ts.isStringLiteral(statement.moduleReference.expression)) {
        const specifier = statement.moduleReference.expression.text;
        if (isPackage(specifier)) bind(statement.name.text, treeFor(specifier));
        else names.fromProject.add(statement.name.text);
      } else if (ts.isModuleDeclaration(statement) && ts.isStringLiteral(statement.name) && isPackage(statement.name.text)) {
        const specifier = statement.name.text;
        // In a module it augments the package; in a script or .d.ts it declares it.
        if (ts.isExternalModule(source)) {
          treeFor(specifier);
          augmentations.set(specifier, [...(augmentations.get(specifier) ?? []), augmentationOf(statement.body, source)]);
        } else declaredByProject.add(specifier);
      }
    }
    // `import { z } from 'zod'; export { z as schema }`: importers of this file know it as `schema`.
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || statement.moduleSpecifier || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
      for (const element of statement.exportClause.elements) {
        const node = names.locals.get((element.propertyName ?? element.name).text);
        if (node) known(element.name.text, node);
      }
    }
    // Top-down, so the first chain met is the longest (`React.JSX.Element`, not `React.JSX`).
    const visit = (node: TS.Node): void => {
      if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        const specifier = node.argument.literal.text;
        if (isPackage(specifier)) {
          const chain = node.qualifier ? chainOf(node.qualifier) : null;
          addChain(treeFor(specifier), chain ?? []);
        }
      } else if (ts.isQualifiedName(node) || ts.isPropertyAccessExpression(node)) {
        const chain = chainOf(node);
        if (chain && chain.length > 1) names.chains.push(chain);
        if (chain) return;
      } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && ts.isIdentifier(node.initializer)) {
        // `const { object, string } = z`: names read off a namespace object.
        for (const element of node.name.elements) {
          const property = element.propertyName ?? element.name;
          if (ts.isIdentifier(property)) names.chains.push([node.initializer.text, property.text]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return names;
  });

  for (const names of files) {
    for (const [root, ...rest] of names.chains) {
      const local = names.locals.get(root!);
      if (local) addChain(local, rest);
      else if (names.fromProject.has(root!)) for (const tree of byName.get(root!) ?? []) addChain(tree, rest);
      // @types/react also declares a global `React` namespace: `React.FC` without an import.
      else if (root === 'React') addChain(globalReact, rest);
    }
  }

  let out = options.globalReact !== false && globalReact.children.size > 0 ? `declare namespace React {\n${emitTypes(globalReact, '  ')}}\n` : '';
  for (const [specifier, tree] of trees) {
    if (declaredByProject.has(specifier)) continue;
    const augmented = mergeAugmentations(augmentations.get(specifier) ?? []);
    out += `declare module ${JSON.stringify(specifier)} {\n`;
    for (const name of tree.children.keys()) if (!augmented.values.has(name)) out += `  export const ${name}: any;\n`;
    out += emitTypes(tree, '  ', augmented);
    out += `  const __wolfpack_default: any;\n  type __wolfpack_default${TYPE_PARAMS} = any;\n  namespace __wolfpack_default {\n${emitTypes(tree, '    ')}  }\n  export default __wolfpack_default;\n}\n`;
  }
  return out;
}

function mergeAugmentations(list: readonly Augmentation[]): Augmentation {
  const merged: Augmentation = { values: new Set(), types: new Map() };
  for (const one of list) {
    for (const name of one.values) merged.values.add(name);
    for (const [name, params] of one.types) if (!merged.types.has(name) || params === null) merged.types.set(name, params);
  }
  return merged;
}
