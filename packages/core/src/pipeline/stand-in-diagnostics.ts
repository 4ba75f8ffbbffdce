/**
 * Which type errors only a stand-in declaration could cause. The stand-ins (package-stubs.ts and
 * the ambient `declare module '*'`) are shaped so that they cause none, but a project can still
 * reach past them in ways no stand-in foresees: a package's namespace object passed around and
 * read (`const lib = Z; lib.x`), an import of a name a project module re-exports with
 * `export * from 'pkg'`, more type arguments than a stand-in takes, an augmentation that clashes.
 * Such an error says nothing about the code, so it is not reported as the code's fault.
 */
import type TS from 'typescript-checker';
import { ts } from './typescript-lazy.js';

/**
 * The errors a stand-in can cause: a name used as a namespace, type or value it is not (2702,
 * 2709, 2713, 2749, 2693, 2708), a missing member (2339, 2551, 2694, 2305, 2614, 2724, 2459,
 * 2460), star re-export ambiguity (2308), heritage on an `any` type (2312, 2422), type argument
 * counts (2314, 2315, 2558, 2707), calls of a module object (2349, 2351), declarations clashing
 * with a stand-in's (2300, 2403, 2428, 2451, 2717), augmentations (2664, 2665, 2669). Only when the
 * error's node reaches a stand-in is it dropped: the same codes on the project's own names stand.
 */
const STAND_IN_CODES = new Set([
  2300, 2305, 2308, 2312, 2314, 2315, 2339, 2349, 2351, 2403, 2422, 2428, 2451, 2459, 2460, 2551, 2558, 2614, 2664, 2665, 2669, 2693, 2694, 2702, 2707, 2708,
  2709, 2713, 2717, 2724, 2749,
]);
/** "Module X has no exported member Y": a project module may re-export a stand-in with `export *`. */
const MISSING_EXPORT_CODES = new Set([2305, 2614, 2724, 2459, 2460]);
/** Enough of an error's node to find what it names; a whole statement's worth at most. */
const MAX_NODES = 200;

/** The chain of nodes from the file down to the innermost one covering the span. */
function pathTo(file: TS.SourceFile, start: number, end: number): TS.Node[] {
  const path: TS.Node[] = [file];
  for (let node: TS.Node | undefined = file; node; ) {
    let next: TS.Node | undefined;
    ts.forEachChild(node, (child) => {
      if (next === undefined && child.getStart(file) <= start && end <= child.end) next = child;
    });
    if (next) path.push(next);
    node = next;
  }
  return path;
}

/**
 * Whether the diagnostic is one only a stand-in can cause: it points into a stand-in file, or
 * it is of a kind stand-ins cause and its node names (or has the type of) something a stand-in
 * declares. `isStandIn` says which files are stand-ins.
 */
export function causedByStandIn(diagnostic: TS.Diagnostic, checker: TS.TypeChecker, isStandIn: (fileName: string) => boolean): boolean {
  const file = diagnostic.file;
  if (!file || isStandIn(file.fileName)) return true;
  if (diagnostic.relatedInformation?.some((info) => info.file !== undefined && isStandIn(info.file.fileName))) return true;
  if (!STAND_IN_CODES.has(diagnostic.code) || diagnostic.start === undefined) return false;

  const declaredInStandIn = (symbol: TS.Symbol | undefined): boolean => {
    if (!symbol) return false;
    if (symbol.declarations?.some((d) => isStandIn(d.getSourceFile().fileName))) return true;
    // An import: what it stands for, one hop and all the way.
    if (symbol.flags & ts.SymbolFlags.Alias) {
      const next = checker.getImmediateAliasedSymbol(symbol);
      if (next?.declarations?.some((d) => isStandIn(d.getSourceFile().fileName))) return true;
      const target = checker.getAliasedSymbol(symbol);
      return target !== symbol && (target.declarations?.some((d) => isStandIn(d.getSourceFile().fileName)) ?? false);
    }
    return false;
  };
  const reaches = (node: TS.Node): boolean => {
    if (ts.isIdentifier(node) || ts.isQualifiedName(node) || ts.isPropertyAccessExpression(node)) {
      if (declaredInStandIn(checker.getSymbolAtLocation(node))) return true;
    }
    // A name in a type position that did not resolve as a type (`let x: lib` of a module) has
    // only an error symbol there: find what the name means in scope.
    if (ts.isIdentifier(node) && !checker.getSymbolAtLocation(node)?.declarations?.length) {
      const named = checker.getSymbolsInScope(node, ts.SymbolFlags.Alias | ts.SymbolFlags.Namespace | ts.SymbolFlags.Value).find((s) => s.name === node.text);
      if (declaredInStandIn(named)) return true;
    }
    if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isCallExpression(node) || ts.isElementAccessExpression(node)) {
      const type = checker.getTypeAtLocation(node);
      if (declaredInStandIn(type.symbol) || declaredInStandIn(type.aliasSymbol)) return true;
    }
    return false;
  };

  const path = pathTo(file, diagnostic.start, diagnostic.start + (diagnostic.length ?? 0));
  const innermost = path.at(-1)!;
  const parent = path.at(-2);
  const candidates: TS.Node[] = [];
  // `lib.x` / `Z.Missing`: the error is on the name, what matters is what it is read from.
  if (parent && (ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression !== innermost) candidates.push(parent.expression);
  if (parent && ts.isQualifiedName(parent) && parent.right === innermost) candidates.push(parent.left);
  const collect = (node: TS.Node): void => {
    if (candidates.length >= MAX_NODES) return;
    candidates.push(node);
    ts.forEachChild(node, collect);
  };
  if (innermost !== file) collect(innermost);
  if (candidates.some(reaches)) return true;

  if (MISSING_EXPORT_CODES.has(diagnostic.code)) {
    const declaration = path.find((node): node is TS.ImportDeclaration | TS.ExportDeclaration => ts.isImportDeclaration(node) || ts.isExportDeclaration(node));
    const specifier = declaration?.moduleSpecifier;
    if (specifier && reExportsStandIn(checker.getSymbolAtLocation(specifier), checker, isStandIn, new Set())) return true;
  }
  return false;
}

/** Is this module a stand-in, or does it (through `export *`, a few modules deep) re-export one? */
function reExportsStandIn(module: TS.Symbol | undefined, checker: TS.TypeChecker, isStandIn: (fileName: string) => boolean, seen: Set<TS.Symbol>): boolean {
  if (!module || seen.has(module) || seen.size > 8) return false;
  seen.add(module);
  for (const declaration of module.declarations ?? []) {
    if (isStandIn(declaration.getSourceFile().fileName)) return true;
    if (!ts.isSourceFile(declaration)) continue;
    for (const statement of declaration.statements) {
      if (!ts.isExportDeclaration(statement) || statement.exportClause || !statement.moduleSpecifier) continue;
      if (reExportsStandIn(checker.getSymbolAtLocation(statement.moduleSpecifier), checker, isStandIn, seen)) return true;
    }
  }
  return false;
}
