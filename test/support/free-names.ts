// The names a piece of code uses that the rest of its file declares. A guide block (a run of
// whole code of a file, support/whole-code.ts) builds only where each name it uses is declared:
// by the block itself, or by the code around it (the file's imports, its functions, the
// enclosing component's props and state). This lists the second kind, each with where the file
// declares it, so a guide test can ask that an earlier block gave that code or that the guide
// says the file already has it.
//
// It reads one file alone, as TypeScript's checker binds it: no other file, no lib. A name the
// file imports is declared by its import specifier there, whatever module it comes from; a
// global (`fetch`, `process`, `window`) or a lib type is declared by no code of the file, so it
// is never listed: it is neither the guide's to give nor the starter's to have.
//
// Only names that resolve through scope count: variables, functions, classes, types,
// interfaces, enums, parameters and imports, in values and in types alike (a type the file
// does not declare fails a strict type-check, which is what apps/next-storefront is held to).
// A property name (`cart.id`'s `id`, an object literal's key, a JSX attribute, a destructured
// `{ order_id: orderId }`'s `order_id`) resolves through the type of what holds it, not through
// scope: it is never listed. A shorthand `{ cart }` uses the variable `cart`, and is listed.
import ts from "typescript";

/** A name a run of the file uses, and where the file declares it (its first declaration). */
export interface UsedName {
  name: string;
  /** Where the name's declaration starts in the file (trivia excluded). */
  declaredAt: number;
}

/** The scope-bound kinds of symbol: what a block can use by name alone. */
const scopeBound =
  ts.SymbolFlags.Variable |
  ts.SymbolFlags.Function |
  ts.SymbolFlags.Class |
  ts.SymbolFlags.Interface |
  ts.SymbolFlags.TypeAlias |
  ts.SymbolFlags.Enum |
  ts.SymbolFlags.TypeParameter |
  ts.SymbolFlags.Alias;

interface Bound {
  file: ts.SourceFile;
  checker: ts.TypeChecker;
}

const bound = new Map<string, Bound>();

/** The file parsed and bound alone, once per text and name. */
function bind(source: string, fileName: string): Bound {
  const key = `${fileName}\0${source}`;
  const known = bound.get(key);
  if (known) return known;
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const name = fileName.endsWith(".tsx") ? "block-file.tsx" : "block-file.ts";
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, kind);
  const options: ts.CompilerOptions = {
    noLib: true,
    noResolve: true,
    types: [],
    jsx: ts.JsxEmit.Preserve,
    target: ts.ScriptTarget.Latest,
  };
  const host: ts.CompilerHost = {
    getSourceFile: (requested) => (requested === name ? file : undefined),
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => undefined,
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (f) => f === name,
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [name], options, host });
  const result = { file, checker: program.getTypeChecker() };
  bound.set(key, result);
  return result;
}

/** Whether `id` is a name that is looked up in scope, rather than a property's name. */
function isScopeReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if (ts.isQualifiedName(parent) && parent.right === id) return false;
  if (ts.isJsxAttribute(parent) && parent.name === id) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === id) return false;
  if (ts.isBindingElement(parent) && parent.propertyName === id) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return false;
  if (ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent)) return false;
  if (ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) return false;
  return true;
}

/**
 * The names the code between `run.start` and `run.end` uses that the file declares outside that
 * run, each once, in the order the run first uses them. Names the run declares itself (its
 * imports, its functions, its own `const`s and parameters) are the block's, and not listed.
 */
export function usedOutsideRun(
  source: string,
  run: { start: number; end: number },
  fileName: string,
): UsedName[] {
  const { file, checker } = bind(source, fileName);
  const used = new Map<string, UsedName>();
  const visit = (node: ts.Node) => {
    if (node.end <= run.start || node.getStart(file) >= run.end) return;
    if (ts.isIdentifier(node) && node.getStart(file) >= run.start && isScopeReference(node)) {
      const symbol = ts.isShorthandPropertyAssignment(node.parent)
        ? checker.getShorthandAssignmentValueSymbol(node.parent)
        : checker.getSymbolAtLocation(node);
      const declaration =
        symbol && symbol.flags & scopeBound ? symbol.declarations?.[0] : undefined;
      if (declaration && declaration.getSourceFile() === file) {
        const at = declaration.getStart(file);
        if ((at < run.start || at >= run.end) && !used.has(node.text)) {
          used.set(node.text, { name: node.text, declaredAt: at });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...used.values()];
}
